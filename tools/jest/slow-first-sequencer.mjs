// Jest's default order puts the longest suites first only from its own timing cache, which a
// fresh CI clone does not have (it then orders by file size, and a short file that starts a whole
// stack may run last, alone on one worker). This order: the time jest recorded last, else the one
// in durations.json (seconds, suites of 5 s or more on a 2-core machine), else 1 s; longest first,
// suites that failed last time before all. `node tools/jest/record-durations.mjs <file>` rewrites
// durations.json from a whole run's `jest --json --outputFile=<file>`.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import TestSequencer from '@jest/test-sequencer';

const BaseSequencer = TestSequencer.default ?? TestSequencer;
const RECORDED = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8'));
const DEFAULT_MS = 1000;

export default class SlowFirstSequencer extends BaseSequencer {
  sort(tests) {
    const estimate = (test) => {
      const cached = this.time(test);
      if (cached != null) return cached;
      const seconds = RECORDED[relative(test.context.config.rootDir, test.path)];
      return seconds != null ? seconds * 1000 : DEFAULT_MS;
    };
    return tests
      .map((test) => ({ test, failed: this.hasFailed(test) ? 0 : 1, ms: estimate(test) }))
      .sort((a, b) => a.failed - b.failed || b.ms - a.ms || (a.test.path < b.test.path ? -1 : 1))
      .map(({ test }) => test);
  }
}
