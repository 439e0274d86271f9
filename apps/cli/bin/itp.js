#!/usr/bin/env node
// The `itp` binary of @itp/cli: runs the bundle (`npm run build -w @itp/cli` makes it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../../../dist/apps/cli/main.js', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write(
    `error: ${bundle} is not built: run "npm run build -w @itp/cli" (or use "npm run itp -- …")\n`,
  );
  process.exit(2);
}
await import(bundle);
