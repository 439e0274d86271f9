/**
 * `npm start`: the whole platform in the foreground for development (see dev-stack.ts).
 * Configuration: PORT (gateway, default 8080), DATA_DIR (default ./data), LOG_LEVEL (default
 * info), and REDIS_URL / DATABASE_URL / LOG_PRETTY / BLOCK_FINALITY_DEPTH (dev default 2, see
 * @itp/harness wiring.ts), which are handed to the services when set.
 */
import { fileURLToPath } from 'node:url';
import { readDevSettings, type DevSettings } from './dev-settings.js';
import { runDevStack } from './dev-stack.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
let settings: DevSettings;
try {
  settings = readDevSettings(process.env, repoRoot);
} catch (err) {
  console.error(`[dev] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
await runDevStack(settings);
