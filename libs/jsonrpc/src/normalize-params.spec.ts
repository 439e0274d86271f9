import { describe, expect, it } from '@jest/globals';
import { normalizeParams } from './normalize-params.js';

describe('normalizeParams', () => {
  it("'object': an object, a one-object array, or nothing", () => {
    expect(normalizeParams('object', { a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    expect(normalizeParams('object', [{ a: 1 }])).toEqual({ ok: true, value: { a: 1 } });
    expect(normalizeParams('object', undefined)).toEqual({ ok: true, value: {} });
    expect(normalizeParams('object', [])).toEqual({ ok: true, value: {} });
  });

  it("'object': refuses other arrays", () => {
    expect(normalizeParams('object', [1]).ok).toBe(false);
    expect(normalizeParams('object', [{ a: 1 }, { b: 2 }]).ok).toBe(false);
    expect(normalizeParams('object', [[{ a: 1 }]]).ok).toBe(false);
  });

  it("'positional': an array or nothing, never an object", () => {
    expect(normalizeParams('positional', [1, 'x'])).toEqual({ ok: true, value: [1, 'x'] });
    expect(normalizeParams('positional', undefined)).toEqual({ ok: true, value: [] });
    expect(normalizeParams('positional', { a: 1 })).toEqual({
      ok: false,
      message: 'params must be an array',
    });
  });
});
