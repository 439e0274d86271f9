/**
 * Production build of one app: bundles apps/<name>/src/main.ts and the workspace libs it imports
 * into dist/apps/<name>/main.js (ESM, Node 20). npm packages stay external: the image installs
 * them with `npm ci --omit=dev`. Run from an app folder (nx run <app>:build) or with the app name.
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');
const app = process.argv[2] ?? basename(process.cwd());
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

await build({
  entryPoints: [join(root, 'apps', app, 'src', 'main.ts')],
  outfile: join(root, 'dist', 'apps', app, 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Every npm dependency stays external (installed in the image); only @itp/* libs are bundled.
  external: Object.keys(pkg.dependencies).flatMap((name) => [name, `${name}/*`]),
  logLevel: 'warning',
});
process.stdout.write(`built dist/apps/${app}/main.js\n`);
