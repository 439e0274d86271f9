/**
 * Regenerates token-rpc's ERC-20 artifact (apps/token-rpc/src/contracts/itp-token.json) from
 * tools/contracts/ItpToken.sol with the npm solc compiler, offline.
 *
 *   npx tsx tools/contracts/compile.ts           # write the artifact
 *   npx tsx tools/contracts/compile.ts --check   # exit 1 when the committed artifact is stale
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ARTIFACT_PATH, buildArtifact } from './build-artifact.js';

const text = await buildArtifact();
if (process.argv.includes('--check')) {
  const current = existsSync(ARTIFACT_PATH) ? readFileSync(ARTIFACT_PATH, 'utf8') : '';
  if (current !== text) {
    process.stderr.write(`${ARTIFACT_PATH} is stale: run npx tsx tools/contracts/compile.ts\n`);
    process.exit(1);
  }
  process.stdout.write('contract artifact is up to date\n');
} else {
  writeFileSync(ARTIFACT_PATH, text);
  process.stdout.write(`wrote ${ARTIFACT_PATH}\n`);
}
