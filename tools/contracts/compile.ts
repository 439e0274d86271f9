/**
 * Regenerates the committed contract artifacts (ARTIFACTS in build-artifact.ts: token-rpc's ERC-20
 * apps/token-rpc/src/contracts/itp-token.json and the Sign-In with Ethereum test accounts
 * libs/testing/src/contracts/siwe-test-account.json) from the Solidity sources in tools/contracts
 * with the npm solc compiler, offline.
 *
 *   npx tsx tools/contracts/compile.ts           # write the artifacts
 *   npx tsx tools/contracts/compile.ts --check   # exit 1 when a committed artifact is stale
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { ARTIFACTS, buildArtifact } from './build-artifact.js';

const check = process.argv.includes('--check');
let stale = 0;
for (const spec of ARTIFACTS) {
  const text = await buildArtifact(spec);
  const name = relative(process.cwd(), spec.path);
  if (check) {
    const current = existsSync(spec.path) ? readFileSync(spec.path, 'utf8') : '';
    if (current !== text) {
      stale += 1;
      process.stderr.write(`${name} is stale: run npx tsx tools/contracts/compile.ts\n`);
    }
  } else {
    mkdirSync(dirname(spec.path), { recursive: true });
    writeFileSync(spec.path, text);
    process.stdout.write(`wrote ${name}\n`);
  }
}
if (check) {
  if (stale > 0) process.exit(1);
  process.stdout.write('contract artifacts are up to date\n');
}
