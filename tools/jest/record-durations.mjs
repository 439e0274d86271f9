// Rewrites tools/jest/durations.json (read by slow-first-sequencer.mjs) from a whole run's
// `jest --json --outputFile=<file>`: the suites that took 5 s or more, in whole seconds.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = process.argv[2];
if (!file) {
  console.error('usage: node tools/jest/record-durations.mjs <jest --json output file>');
  process.exit(2);
}
const root = fileURLToPath(new URL('../..', import.meta.url));
const { testResults } = JSON.parse(readFileSync(file, 'utf8'));
const durations = testResults
  .map((r) => [relative(root, r.name), Math.round((r.endTime - r.startTime) / 1000)])
  .filter(([, seconds]) => seconds >= 5)
  .sort((a, b) => b[1] - a[1]);
writeFileSync(
  new URL('./durations.json', import.meta.url),
  `${JSON.stringify(Object.fromEntries(durations), null, 2)}\n`,
);
console.log(`${durations.length} suites of 5 s or more written to tools/jest/durations.json`);
