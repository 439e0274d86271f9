/**
 * The esbuild bundles the app processes of a stack start from (AppProcess with `run: { bundle }`):
 * used by `npm start` (tools/dev/dev-stack.ts) and startStack (stack.ts).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { isAlive } from './processes.js';

/** Where the bundles of each run go: inside the repository, so that node_modules resolves. */
export const bundlesRoot = (repoRoot: string): string =>
  join(repoRoot, 'node_modules', '.cache', 'itp-dev');

const RUN_DIR = /^run-(\d+)$/;

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
  const root = bundlesRoot(repoRoot);
  mkdirSync(root, { recursive: true });
  for (const entry of readdirSync(root)) {
    const pid = RUN_DIR.exec(entry)?.[1];
    if (pid && Number(pid) !== process.pid && !isAlive(Number(pid))) {
      rmSync(join(root, entry), { recursive: true, force: true });
    }
  }
  const dir = join(root, `run-${process.pid}`);
  const entry = (name: string): string => join(dir, name, 'main.mjs');
  await build({
    entryPoints: names.map((name) => ({
      in: join(repoRoot, 'apps', name, 'src', 'main.ts'),
      out: join(name, 'main'),
    })),
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
    throw new Error(`could not build the services: ${err instanceof Error ? err.message : err}`);
  });
  return { entry, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
