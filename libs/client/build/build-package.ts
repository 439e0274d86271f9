/**
 * Builds the publishable package of the SDK into `outDir` (default dist/libs/client):
 *
 *   package.json        @itp/client, ESM, `exports` with types; no private workspace dependency
 *   index.js            the SDK bundled by esbuild (global fetch and WebCrypto); its one import is
 *                       `viem/siwe`, loaded on first use by Sign-In with Ethereum
 *   types/client/…      declarations of the SDK
 *   types/schemas/…     declarations of @itp/schemas the SDK's types come from (they need `zod`'s
 *                       types)
 *   dependencies        viem (runtime, Sign-In with Ethereum messages), zod (types only)
 *   README.md
 *
 * `npm run build -w @itp/client` (or `nx run client:build`); then `npm pack dist/libs/client`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const libDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(libDir, '../..');
const schemasDir = resolve(repoRoot, 'libs/schemas');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Declarations of src/index.ts and of the @itp/schemas files it reaches, into `typesDir`. */
function emitDeclarations(typesDir: string): void {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: resolve(repoRoot, 'libs'),
    outDir: typesDir,
    types: ['node'],
    // As source, not as a package in node_modules (whose files tsc would not emit).
    paths: { '@itp/schemas': [resolve(schemasDir, 'src/index.ts')] },
  };
  const program = ts.createProgram([resolve(libDir, 'src/index.ts')], options);
  const result = program.emit();
  const errors = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics].filter(
    (d) => d.category === ts.DiagnosticCategory.Error,
  );
  if (errors.length > 0) {
    const host = {
      getCanonicalFileName: (f: string) => f,
      getCurrentDirectory: () => repoRoot,
      getNewLine: () => '\n',
    };
    throw new Error(ts.formatDiagnostics(errors, host));
  }
  // The SDK's declarations name '@itp/schemas': point them at the emitted copy instead.
  const schemasIndex = join(
    typesDir,
    relative(resolve(repoRoot, 'libs'), schemasDir),
    'src/index.js',
  );
  for (const file of filesUnder(join(typesDir, 'client'))) {
    const text = readFileSync(file, 'utf8');
    let target = relative(dirname(file), schemasIndex);
    if (!target.startsWith('.')) target = `./${target}`;
    writeFileSync(file, text.replaceAll(`'@itp/schemas'`, `'${target}'`));
  }
}

export interface BuiltPackage {
  outDir: string;
  /** bytes of index.js */
  bundleBytes: number;
}

export async function buildPackage(
  outDir = resolve(repoRoot, 'dist/libs/client'),
): Promise<BuiltPackage> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [resolve(libDir, 'src/index.ts')],
    outfile: join(outDir, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    logLevel: 'error',
    // viem is a dependency of the package (declared below), not bundled into it.
    external: ['viem', 'viem/*'],
  });
  emitDeclarations(join(outDir, 'types'));

  const own = JSON.parse(readFileSync(resolve(libDir, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const versionOf = (name: string) =>
    (
      JSON.parse(readFileSync(resolve(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  const manifest = {
    name: own['name'],
    version: own['version'],
    description: own['description'],
    type: 'module',
    sideEffects: false,
    exports: {
      '.': { types: './types/client/src/index.d.ts', default: './index.js' },
    },
    types: './types/client/src/index.d.ts',
    files: ['index.js', 'types', 'README.md'],
    // viem builds Sign-In with Ethereum messages; zod for types only (the message schemas).
    dependencies: { viem: `^${versionOf('viem')}`, zod: `^${versionOf('zod')}` },
    engines: { node: '>=20' },
  };
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(outDir, 'README.md'), readFileSync(resolve(libDir, 'README.md')));
  return { outDir, bundleBytes: statSync(join(outDir, 'index.js')).size };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildPackage(process.argv[2] ? resolve(process.argv[2]) : undefined);
  process.stdout.write(`@itp/client → ${built.outDir} (index.js ${built.bundleBytes} bytes)\n`);
}
