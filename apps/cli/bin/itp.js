#!/usr/bin/env node
// The `itp` binary of @itp/cli, from any folder: `npm install -g ./apps/cli` (or `npm link` in
// apps/cli) links it into PATH; `node <repo>/apps/cli/bin/itp.js …` works without installing.
// It runs the bundle when built (`npm run build -w @itp/cli`), else the TypeScript source through
// the repository's tsx. Paths are this file's, never the working directory's: the caller's
// folder stays where relative file names are read from.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../../../dist/apps/cli/main.js', import.meta.url));
const source = new URL('../src/main.ts', import.meta.url);
if (existsSync(bundle)) {
  await import(bundle);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write(
      `error: ${bundle} is not built and tsx is not installed: run "npm ci" and ` +
        `"npm run build -w @itp/cli" in the repository\n`,
    );
    process.exit(2);
  }
  register();
  await import(source.href);
}
