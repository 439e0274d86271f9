/**
 * Writes a fresh set of deployment secrets (see .env.example for what each one is).
 *
 *   npx tsx tools/deploy/generate-env.ts .env            for docker compose (--env-file .env)
 *   npx tsx tools/deploy/generate-env.ts --k8s itp.env   for kubectl create secret --from-env-file
 *
 * Refuses to overwrite a file (a lost wallet master key or key-store secret loses the keys it
 * encrypts): rotate with docs/operations.md instead. `-` writes to stdout. The file is mode 0600.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { generateSecrets, toEnvFile } from './secrets.js';

const args = process.argv.slice(2);
const forKubectl = args.includes('--k8s');
const target = args.find((arg) => !arg.startsWith('--'));
if (!target) {
  process.stderr.write('usage: tsx tools/deploy/generate-env.ts [--k8s] <file | ->\n');
  process.exit(2);
}
const text = toEnvFile(await generateSecrets(), { forKubectl });
if (target === '-') {
  process.stdout.write(text);
} else if (existsSync(target)) {
  process.stderr.write(
    `${target} exists: not overwritten (rotate keys as docs/operations.md says)\n`,
  );
  process.exit(1);
} else {
  writeFileSync(target, text, { mode: 0o600 });
  process.stderr.write(`wrote ${target} (mode 0600): keep it out of version control\n`);
}
