import { describe, expect, it } from '@jest/globals';
import { UsageError } from '../errors.js';
import { parseBlockSelector } from './block.js';

describe('parseBlockSelector', () => {
  it('defaults to latest and keeps tags (any case)', () => {
    expect(parseBlockSelector(undefined)).toBe('latest');
    expect(parseBlockSelector('Earliest')).toBe('earliest');
    expect(parseBlockSelector('finalized')).toBe('finalized');
  });

  it('sends a decimal number as a JSON number, hex numbers and hashes as strings', () => {
    expect(parseBlockSelector('42')).toBe(42);
    expect(parseBlockSelector('0x2a')).toBe('0x2a');
    const hash = `0x${'ab'.repeat(32)}`;
    expect(parseBlockSelector(hash)).toBe(hash);
  });

  it('refuses anything else with a usage error', () => {
    for (const bad of ['-1', '1.5', 'head', '0x', `0x${'a'.repeat(63)}`, '9007199254740993']) {
      expect(() => parseBlockSelector(bad)).toThrow(UsageError);
    }
  });
});
