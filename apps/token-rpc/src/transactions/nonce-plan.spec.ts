import { describe, expect, it } from '@jest/globals';
import {
  formatStoredNonce,
  leaseRetryDelayMs,
  parseStoredNonce,
  planNonce,
} from './nonce-manager.js';

describe('planNonce', () => {
  it('uses the chain’s pending nonce when nothing is stored or the chain is ahead', () => {
    expect(planNonce(4, null, 1000, 30_000)).toEqual({
      nonce: 4,
      aheadSince: null,
      resynchronised: false,
    });
    expect(planNonce(4, { next: 3, aheadSince: null }, 1000, 30_000).nonce).toBe(4);
    expect(planNonce(4, { next: 4, aheadSince: 500 }, 1000, 30_000)).toEqual({
      nonce: 4,
      aheadSince: null,
      resynchronised: false,
    });
  });

  it('trusts a stored nonce ahead of a lagging chain, and remembers since when', () => {
    expect(planNonce(4, { next: 6, aheadSince: null }, 1000, 30_000)).toEqual({
      nonce: 6,
      aheadSince: 1000,
      resynchronised: false,
    });
    expect(planNonce(4, { next: 7, aheadSince: 1000 }, 20_000, 30_000).aheadSince).toBe(1000);
  });

  it('drops a stored nonce the chain stayed behind for longer than the gap timeout', () => {
    expect(planNonce(4, { next: 9, aheadSince: 1000 }, 31_001, 30_000)).toEqual({
      nonce: 4,
      aheadSince: null,
      resynchronised: true,
    });
  });
});

describe('stored nonce format', () => {
  it('round-trips and refuses what it did not write', () => {
    const text = formatStoredNonce({ next: 12, aheadSince: null });
    expect(parseStoredNonce(text)).toEqual({ next: 12, aheadSince: null });
    expect(parseStoredNonce(formatStoredNonce({ next: 3, aheadSince: 99 }))).toEqual({
      next: 3,
      aheadSince: 99,
    });
    expect(parseStoredNonce(null)).toBeNull();
    expect(parseStoredNonce('12')).toBeNull();
    expect(parseStoredNonce('{"next":-1,"aheadSince":null}')).toBeNull();
    expect(parseStoredNonce('{"next":1.5,"aheadSince":null}')).toBeNull();
    expect(parseStoredNonce('not json')).toBeNull();
  });
});

describe('leaseRetryDelayMs', () => {
  it('grows from a few ms to at most 100 ms', () => {
    for (let attempt = 0; attempt < 12; attempt++) {
      const delay = leaseRetryDelayMs(attempt);
      expect(delay).toBeGreaterThanOrEqual(2);
      expect(delay).toBeLessThanOrEqual(100);
    }
    expect(leaseRetryDelayMs(20)).toBeGreaterThanOrEqual(50);
  });
});
