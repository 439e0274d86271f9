import { describe, expect, it } from '@jest/globals';
import { mergeVary } from './merge-vary.js';

describe('mergeVary', () => {
  it('unites both values without duplicates, case-insensitively', () => {
    expect(mergeVary('Origin', 'Accept-Encoding, origin')).toBe('Origin, Accept-Encoding');
    expect(mergeVary(['Origin', 'Accept'], undefined)).toBe('Origin, Accept');
  });

  it('lets * win and is undefined when both are empty', () => {
    expect(mergeVary('Origin', '*')).toBe('*');
    expect(mergeVary(undefined, undefined)).toBeUndefined();
    expect(mergeVary('', ' , ')).toBeUndefined();
  });
});
