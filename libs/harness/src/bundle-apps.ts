/**
 * The esbuild bundles the app processes of a stack start from (AppProcess with `run: { bundle }`):
 * used by `npm start` (tools/dev/dev-stack.ts) and startStack (stack.ts).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { isAlive } from './processes.js';

/** Where the bundles of each run go: inside the repository, so that node_modules resolves. */
export const bundlesRoot = (repoRoot: string): string =>
  join(repoRoot, 'node_modules', '.cache', 'itp-dev');

/** `run-<pid>` (bundleServices) and `entry-<pid>-<random>` (bundleEntry): the pid made it. */
const RUN_DIR = /^(?:run-(\d+)|entry-(\d+)-.+)$/;

/** npm packages stay external (node loads them as installed); only @itp/* and app code is bundled. */
const npmExternal: Plugin = {
  name: 'npm-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@itp/') ? undefined : { path: args.path, external: true },
    );
  },
};

export interface ServiceBundles {
  /** The bundle of `apps/<name>/src/main.ts`. */
  entry(name: string): string;
  /** Deletes this run's bundles (the services have loaded them by then). */
  remove(): void;
}

/**
 * Bundles `apps/<name>/src/main.ts` of each service with the workspace libs it imports into one
 * ESM file (esbuild, as tools/build/assemble-app.ts does for the images, with linked source maps), so that
 * the service processes start on plain node: no tsx loader resolving and transpiling hundreds of
 * modules in every one of them, which made the start of the stack several seconds slower.
 * Each run writes to its own folder (two stacks may start at once); folders of runs whose
 * process is gone are removed first.
 */
export async function bundleServices(
  repoRoot: string,
  names: readonly string[],
): Promise<ServiceBundles> {
  const root = bundlesFolder(repoRoot);
  const dir = join(root, `run-${process.pid}`);
  const entry = (name: string): string => join(dir, name, 'main.mjs');
  await bundleInto(
    dir,
    names.map((name) => ({
      in: join(repoRoot, 'apps', name, 'src', 'main.ts'),
      out: join(name, 'main'),
    })),
    'the services',
  );
  for (const name of names) copyBrowserScripts(repoRoot, name, join(dir, name));
  return { entry, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface EntryBundle {
  /** The bundle (`<name>.mjs`): run it with plain node. */
  file: string;
  /** Deletes the bundle's folder. */
  remove(): void;
}

/**
 * One entry file of the repository (an app's `src/migrate.ts`, its operator CLI `src/cli.ts`)
 * bundled as bundleServices bundles the services: for specs and tools that run the same entry as
 * several processes, which then start on plain node instead of each compiling the entry's imports
 * with tsx again. Each call writes to a folder of its own (several specs of one process may bundle
 * at once).
 */
export async function bundleEntry(repoRoot: string, file: string): Promise<EntryBundle> {
  const root = bundlesFolder(repoRoot);
  const dir = mkdtempSync(join(root, `entry-${process.pid}-`));
  const name = basename(file).replace(/\.[cm]?ts$/, '');
  await bundleInto(dir, [{ in: file, out: name }], file);
  const app = /^apps\/([^/]+)\/src\//.exec(relative(repoRoot, file))?.[1];
  if (app) copyBrowserScripts(repoRoot, app, dir);
  return {
    file: join(dir, `${name}.mjs`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The pages' scripts of an app (`apps/<app>/src/…/browser/<name>.js`, served as they are) into
 * `<bundle's folder>/browser/`: the modules serving them read `./browser/<name>.js` beside
 * themselves (`import.meta.url`), which from a bundle is there (as in the images:
 * tools/build/assemble-app.ts).
 */
function copyBrowserScripts(repoRoot: string, app: string, bundleDir: string): void {
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (basename(dir) === 'browser' && entry.name.endsWith('.js')) {
        mkdirSync(join(bundleDir, 'browser'), { recursive: true });
        cpSync(path, join(bundleDir, 'browser', entry.name));
      }
    }
  };
  visit(join(repoRoot, 'apps', app, 'src'));
}

/** bundlesRoot, created, without the folders of runs whose process is gone. */
function bundlesFolder(repoRoot: string): string {
  const root = bundlesRoot(repoRoot);
  mkdirSync(root, { recursive: true });
  for (const entry of readdirSync(root)) {
    const match = RUN_DIR.exec(entry);
    const pid = Number(match?.[1] ?? match?.[2]);
    if (match && pid !== process.pid && !isAlive(pid)) {
      rmSync(join(root, entry), { recursive: true, force: true });
    }
  }
  return root;
}

/** ESM bundles of `entryPoints` (npm packages external) in `dir`; removes `dir` on failure. */
async function bundleInto(
  dir: string,
  entryPoints: Array<{ in: string; out: string }>,
  what: string,
): Promise<void> {
  await build({
    entryPoints,
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    plugins: [npmExternal],
    logLevel: 'silent',
  }).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not build ${what}: ${err instanceof Error ? err.message : err}`);
  });
}
