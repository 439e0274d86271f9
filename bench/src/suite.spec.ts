import { describe, expect, it } from '@jest/globals';
import { SCENARIOS } from './scenarios.js';
import { parseOnly } from './suite.js';

describe('npm run bench -- --only', () => {
  it('reads the scenario numbers in both spellings, and nothing without the option', () => {
    expect(parseOnly(['--only', '4,7'])).toEqual(new Set([4, 7]));
    expect(parseOnly(['--smoke', '--only=2'])).toEqual(new Set([2]));
    expect(parseOnly(['--only', '8'])).toEqual(new Set([8]));
    expect(parseOnly(['--smoke'])).toBeUndefined();
  });

  it('refuses numbers that name no scenario, and a missing list', () => {
    for (const argv of [
      ['--only', '0'],
      [`--only=${SCENARIOS.length + 1}`],
      ['--only', 'gateway'],
      ['--only'],
      ['--only='],
    ]) {
      expect(() => parseOnly(argv)).toThrow(
        new RegExp(`--only takes scenario numbers 1–${SCENARIOS.length}`),
      );
    }
  });
});
