import { checkValidityWindow } from './check-validity-window.js';

const NOW = 1_800_000_000;

function ruleOf(payload: Record<string, unknown>): unknown {
  try {
    checkValidityWindow(payload, NOW);
    return undefined;
  } catch (error) {
    return (error as { rule?: unknown }).rule;
  }
}

describe('checkValidityWindow', () => {
  it('accepts no time claims, and times within the 60 s skew', () => {
    expect(ruleOf({})).toBeUndefined();
    expect(ruleOf({ iat: NOW - 10, exp: NOW - 59, nbf: NOW + 59 })).toBeUndefined();
  });

  it('refuses past exp (expired), future nbf or iat (not_yet_valid), non-numeric times (format)', () => {
    expect(ruleOf({ exp: NOW - 61 })).toBe('expired');
    expect(ruleOf({ nbf: NOW + 61 })).toBe('not_yet_valid');
    expect(ruleOf({ iat: NOW + 61 })).toBe('not_yet_valid');
    expect(ruleOf({ exp: String(NOW + 100) })).toBe('format');
  });
});
