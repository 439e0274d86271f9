import { describe, expect, it } from '@jest/globals';
import { JsonTooDeepError } from '@itp/service-kit';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('ignores key order at every depth, keeps array order and every value', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[2,{"x":0,"y":1}]},"b":1}',
    );
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson('é"')).toBe(JSON.stringify('é"'));
  });

  it('refuses a value nested deeper than 64 levels with a 400 instead of overflowing the stack', () => {
    const deep: unknown = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    expect(() => canonicalJson(deep)).toThrow(JsonTooDeepError);
    expect(() => canonicalJson(deep)).not.toThrow(RangeError);
  });
});
