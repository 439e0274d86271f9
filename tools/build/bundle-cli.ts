/**
 * The `itp` CLI outside the images (`npm run build -w @itp/cli`, what apps/cli/bin/itp.js runs):
 * apps/cli/src/main.ts and the workspace libs it imports bundled into dist/apps/cli/main.js (ESM,
 * Node 20); npm packages stay external (resolved from this repository's node_modules). The
 * images get their own itp.js from tools/build/assemble-app.ts.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');
const app = 'cli';
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
  // Every npm dependency stays external (from node_modules); only the @itp/* libs are bundled.
  external: Object.keys(pkg.dependencies).flatMap((name) => [name, `${name}/*`]),
  logLevel: 'warning',
});
process.stdout.write(`built dist/apps/${app}/main.js\n`);
