/**
 * The install + bundle steps of one app's production image, into an empty folder: what the
 * Dockerfiles in deploy/docker run (`tsx tools/build/assemble-app.ts <app> /out`) and what
 * tools/deploy/image-contents.spec.ts runs into a temp folder before starting the app from it.
 *
 *   <out>/package.json           {"type": "module"}: nothing else, nothing to install
 *   <out>/dist/main.js           the app: its code, the @itp/* libs and every bundlable npm package
 *   <out>/dist/<entry>.js        more entries (src/cli.ts, src/migrate.ts, one-shot jobs)
 *   <out>/dist/itp.js            the one CLI (apps/cli), in every image
 *   <out>/dist/healthcheck.js    the image's HEALTHCHECK (GET /health/live, no curl needed)
 *   <out>/dist/browser/*.js      the pages' scripts (the app's src/…/browser/*.js), read at start
 *   <out>/node_modules/…         only the packages esbuild must leave external (native addons,
 *                                packages that load files or drivers at run time), with their
 *                                runtime dependencies, copied from this repository's node_modules
 *
 * Copying from the installed node_modules (rather than a second `npm install`) keeps the image's
 * packages byte-identical to the ones CI tested and needs no network; the Docker build runs
 * `npm ci` once in its build stage, then this script.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';

export const repoRoot = resolve(import.meta.dirname, '../..');

/** The apps that have an image, with their public port (the apps' documented defaults). */
export const IMAGE_APPS = {
  gateway: 8080,
  'auth-service': 8081,
  'did-service': 8082,
  'token-rpc': 8083,
  'block-rpc': 8084,
} as const;
export type ImageApp = keyof typeof IMAGE_APPS;

/**
 * Packages an app reads by path at run time (require.resolve, never imported), so esbuild's
 * metafile does not name them: copied into that app's image all the same.
 */
const RUNTIME_FILE_PACKAGES: Record<string, string[]> = {
  // /docs serves swagger-ui-dist's own css / js files (apps/gateway/src/docs/docs-router.ts).
  gateway: ['swagger-ui-dist'],
};

/** Entry points of an app's own `src/` besides `main.ts`, picked up when the file exists. */
const APP_ENTRIES = [
  'cli', // the operator CLI: dist/cli.js
  'migrate', // the Kubernetes migration Job: dist/migrate.js
] as const;

/**
 * Entry points from outside the app's `src/`, by app (name in dist/ → source file from the repo
 * root).
 */
const EXTRA_ENTRIES: Record<string, Record<string, string>> = {
  // compose's one-shot job: deploys the ERC-1056 registry on a fresh dev chain.
  'did-service': { 'deploy-did-registry': 'tools/deploy/deploy-did-registry.ts' },
};

/**
 * npm packages that stay outside the bundle and are copied with their dependencies:
 * - native addons: better-sqlite3 (imported by @itp/stores), @node-rs/argon2 (its binary is an
 *   optional per-platform package);
 * - packages that load other packages or files by computed path at run time: typeorm (drivers
 *   through `require(name)`; it loads `pg`, so `pg` is external too, one copy for both),
 *   swagger-ui-dist (serves its own asset files), pino (transports run its files in workers).
 */
export const EXTERNAL_PACKAGES = [
  'better-sqlite3',
  '@node-rs/argon2',
  'typeorm',
  'pg',
  'swagger-ui-dist',
  'pino',
] as const;

/** Packages that must never reach an image (dev chain, TypeScript runners, compilers, tests). */
export const FORBIDDEN_PACKAGES = [
  '@foundry-rs/anvil',
  'tsx',
  'solc',
  'esbuild',
  'typescript',
  'jest',
  'ts-jest',
  '@itp/testing',
] as const;

/**
 * Optional packages that bundled code loads inside try/catch and nothing installs: the native
 * pg driver, the `ws` speed-ups, node-fetch's `encoding`. Left external and absent (the code falls back).
 */
const OPTIONAL_ABSENT = new Set(['pg-native', 'bufferutil', 'utf-8-validate', 'encoding']);

/**
 * Files of a package that run time never reads: type declarations, source maps, docs, and for
 * native addons their sources and intermediate build files (better-sqlite3: 27 MB of 30 MB).
 */
const RUNTIME_FILES: Record<string, (path: string) => boolean> = {
  'better-sqlite3': (path) =>
    path === 'package.json' ||
    path === 'LICENSE' ||
    path.startsWith('lib/') ||
    path === 'build/Release/better_sqlite3.node',
};
const NEVER_AT_RUNTIME = /(\.d\.[cm]?ts|\.map|\.md|\.markdown)$/i;

function runtimeFile(pkg: string, path: string): boolean {
  if (path === '') return true;
  if (path.split('/').includes('node_modules')) return false; // visited as dependencies
  if (NEVER_AT_RUNTIME.test(path) && !/^license/i.test(path)) return false;
  const keep = RUNTIME_FILES[pkg];
  return keep === undefined || keep(path) || isAncestorOfKept(pkg, path);
}

/** Folders on the way to a kept file must be entered (cpSync filters folders too). */
function isAncestorOfKept(pkg: string, path: string): boolean {
  return pkg === 'better-sqlite3' && ['lib', 'build', 'build/Release'].includes(path);
}

/** Dependencies that only install or build a package, never loaded at run time. */
const INSTALL_ONLY = new Set(['prebuild-install', 'node-gyp', 'node-gyp-build-optional-packages']);

// Bundled CommonJS code calls require() and reads __dirname; give the ESM bundle both.
const BANNER = [
  "import { createRequire as __itpCreateRequire } from 'node:module';",
  "import { fileURLToPath as __itpFileURLToPath } from 'node:url';",
  "import { dirname as __itpDirname } from 'node:path';",
  'const require = __itpCreateRequire(import.meta.url);',
  'const __filename = __itpFileURLToPath(import.meta.url);',
  'const __dirname = __itpDirname(__filename);',
].join('\n');

const HEALTHCHECK = `// The image's HEALTHCHECK: exit 0 when GET /health/live answers 200 (no curl in the image).
const port = process.env.PORT || process.argv[2];
fetch(\`http://127.0.0.1:\${port}/health/live\`, { signal: AbortSignal.timeout(3000) })
  .then((res) => process.exit(res.status === 200 ? 0 : 1))
  .catch(() => process.exit(1));
`;

export interface AssembledApp {
  app: string;
  outDir: string;
  /** The entry points written to dist/ (without .js). */
  entries: string[];
  /** Every package copied into node_modules (external ones and their dependencies). */
  packages: string[];
  /** Bytes of `<out>/node_modules` (file sizes, as the image layer holds them). */
  nodeModulesBytes: number;
  /** Bytes of `<out>/dist`. */
  distBytes: number;
}

function entriesOf(app: string): Record<string, string> {
  const src = join(repoRoot, 'apps', app, 'src');
  if (!existsSync(join(src, 'main.ts'))) throw new Error(`no such app: apps/${app}/src/main.ts`);
  const entries: Record<string, string> = { main: join(src, 'main.ts') };
  for (const name of APP_ENTRIES) {
    if (existsSync(join(src, `${name}.ts`))) entries[name] = join(src, `${name}.ts`);
  }
  for (const [name, file] of Object.entries(EXTRA_ENTRIES[app] ?? {})) {
    entries[name] = join(repoRoot, file);
  }
  // The one CLI (apps/cli) in every image: `node dist/itp.js …` — API commands against ITP_URL,
  // and in the auth-service / did-service images their operator groups (users, clients, kms),
  // which it runs as this image's own dist/cli.js.
  entries.itp = join(repoRoot, 'apps', 'cli', 'src', 'main.ts');
  return entries;
}

const isExternal = (path: string): boolean =>
  EXTERNAL_PACKAGES.some((name) => path === name || path.startsWith(`${name}/`));

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

const BUILTINS = new Set(builtinModules);
const isBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || BUILTINS.has(packageName(specifier));

/** The packages the bundles import at run time (their externals, builtins left out). */
function externalImports(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (imported.external && !isBuiltin(imported.path)) names.add(packageName(imported.path));
    }
  }
  return [...names].sort();
}

/** Where node would find `name` when required from `fromDir` (inside the repo's node_modules). */
function locate(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === repoRoot || dir === dirname(dir)) return undefined;
  }
}

interface PackageJson {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/**
 * Copies each package and, recursively, its dependencies and installed optional dependencies
 * (the platform binary of @node-rs/argon2) to the same place under `<out>/node_modules`, so that
 * node resolves them there exactly as in the repository. Returns the copied package names.
 */
function copyPackages(names: readonly string[], outDir: string): string[] {
  const copied = new Map<string, string>(); // source dir → name
  const missing: string[] = [];
  const visit = (name: string, fromDir: string, optional: boolean): void => {
    if (INSTALL_ONLY.has(name)) return;
    const source = locate(name, fromDir);
    if (!source) {
      if (!optional) missing.push(`${name} (needed from ${relative(repoRoot, fromDir) || '.'})`);
      return;
    }
    if (copied.has(source)) return;
    const pkg = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as PackageJson;
    copied.set(source, pkg.name);
    cpSync(source, join(outDir, relative(repoRoot, source)), {
      recursive: true,
      dereference: true,
      filter: (src) => runtimeFile(pkg.name, relative(source, src)),
    });
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, source, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, source, true);
  };
  for (const name of names) {
    visit(name, repoRoot, OPTIONAL_ABSENT.has(name));
  }
  if (missing.length > 0) {
    throw new Error(`packages the image needs are not installed: ${missing.join(', ')}`);
  }
  return [...new Set(copied.values())].sort();
}

/** Total size of the files under `dir`. */
export function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/**
 * The pages' scripts of an app: every `src/…/browser/<name>.js`, served as it is (no build step).
 * The module that serves one reads `new URL('./browser/<name>.js', import.meta.url)`: beside it in
 * the repository, `dist/browser/<name>.js` from the bundle; so the names must be unique per app.
 * Copied there; returns the names (`browser/<name>.js`).
 */
export function copyBrowserScripts(app: string, outDir: string): string[] {
  const found = new Map<string, string>(); // name → source file
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && basename(dir) === 'browser' && entry.name.endsWith('.js')) {
        const other = found.get(entry.name);
        if (other) {
          throw new Error(
            `two browser scripts named ${entry.name} in apps/${app}: ${relative(repoRoot, other)}, ${relative(repoRoot, path)}`,
          );
        }
        found.set(entry.name, path);
      }
    }
  };
  visit(join(repoRoot, 'apps', app, 'src'));
  if (found.size > 0) mkdirSync(join(outDir, 'dist', 'browser'), { recursive: true });
  for (const [name, source] of found) cpSync(source, join(outDir, 'dist', 'browser', name));
  return [...found.keys()].sort().map((name) => `browser/${name}`);
}

/** Bundles the app's entries and copies the external packages into `outDir` (empty or absent). */
export async function assembleApp(app: string, outDir: string): Promise<AssembledApp> {
  if (!/^[a-z][a-z0-9-]*$/.test(app)) throw new Error(`not an app name: "${app}"`);
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    throw new Error(`${outDir} is not empty: assemble into an empty folder`);
  }
  const entries = entriesOf(app);
  mkdirSync(join(outDir, 'dist'), { recursive: true });
  const result = await build({
    entryPoints: Object.entries(entries).map(([out, file]) => ({ in: file, out })),
    outdir: join(outDir, 'dist'),
    bundle: true,
    splitting: true, // the entries share one copy of the libs (chunk-*.js)
    chunkNames: 'chunk-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    minifySyntax: true,
    metafile: true,
    legalComments: 'linked',
    external: [...EXTERNAL_PACKAGES, ...OPTIONAL_ABSENT].flatMap((name) => [name, `${name}/*`]),
    plugins: [
      {
        name: 'no-dev-packages',
        setup(b) {
          // A production bundle that would pull in the dev chain, tsx or a compiler fails here.
          b.onResolve({ filter: /^[@a-z]/ }, (args) => {
            const name = packageName(args.path);
            if ((FORBIDDEN_PACKAGES as readonly string[]).includes(name)) {
              return { errors: [{ text: `${name} must not be in a production image` }] };
            }
            if (isExternal(args.path)) return { path: args.path, external: true };
            return undefined;
          });
        },
      },
    ],
    banner: { js: BANNER },
    logLevel: 'silent',
  });
  writeFileSync(join(outDir, 'dist', 'healthcheck.js'), HEALTHCHECK);
  copyBrowserScripts(app, outDir);
  writeFileSync(
    join(outDir, 'package.json'),
    `${JSON.stringify({ name: `@itp/${app}-image`, private: true, type: 'module' }, null, 2)}\n`,
  );
  const packages = copyPackages(
    [...new Set([...externalImports(result.metafile), ...(RUNTIME_FILE_PACKAGES[app] ?? [])])],
    outDir,
  );
  return {
    app,
    outDir,
    entries: Object.keys(entries),
    packages,
    nodeModulesBytes: folderBytes(join(outDir, 'node_modules')),
    distBytes: folderBytes(join(outDir, 'dist')),
  };
}

const runAsScript =
  process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename;
if (runAsScript) {
  const [app, out] = process.argv.slice(2);
  if (!app || !out) {
    process.stderr.write('usage: tsx tools/build/assemble-app.ts <app> <empty output folder>\n');
    process.exit(2);
  }
  const assembled = await assembleApp(app, resolve(out));
  const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  process.stdout.write(
    `assembled ${app} into ${out}: dist ${mb(assembled.distBytes)} (${assembled.entries.join(', ')}), ` +
      `node_modules ${mb(assembled.nodeModulesBytes)} (${assembled.packages.join(', ')})\n`,
  );
}
