import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { oneTimeKey, type OneTimeMarks } from './one-time-marks.js';

/**
 * The behaviour every OneTimeMarks adapter must show. `fixture` gives two views of one fresh,
 * empty store (as two replicas see it) and a cleanup run after each test.
 */
export function oneTimeMarksContract(
  name: string,
  fixture: () => Promise<{
    first: OneTimeMarks;
    second: OneTimeMarks;
    /** The rows the store keeps (to see that cleanup happens and values are not stored). */
    storedKeys: () => Promise<string[]>;
    cleanup: () => Promise<void>;
  }>,
  options: { graceMs: number },
): void {
  describe(`OneTimeMarks contract: ${name}`, () => {
    let first: OneTimeMarks;
    let second: OneTimeMarks;
    let storedKeys: () => Promise<string[]>;
    let cleanup: () => Promise<void>;
    const now = 1_800_000_000_000;
    const later = now + 60_000;

    beforeEach(async () => {
      ({ first, second, storedKeys, cleanup } = await fixture());
    });

    afterEach(async () => {
      await cleanup();
    });

    it('marks a key once: the first mark is true, every later one false, on any replica', async () => {
      const key = oneTimeKey('code', 'abc');
      expect(await first.isMarked(key, now)).toBe(false);
      expect(await first.mark(key, later, now)).toBe(true);
      expect(await first.mark(key, later, now)).toBe(false);
      expect(await second.mark(key, later, now + 1)).toBe(false);
      expect(await second.isMarked(key, now + 1)).toBe(true);
    });

    it('of concurrent marks of one key on two replicas exactly one wins', async () => {
      const key = oneTimeKey('race', 'r1');
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? first : second).mark(key, later, now)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('keeps namespaces apart: one value in two namespaces is two keys', async () => {
      expect(await first.mark(oneTimeKey('a', 'x'), later, now)).toBe(true);
      expect(await first.mark(oneTimeKey('b', 'x'), later, now)).toBe(true);
      expect(await first.mark(oneTimeKey('a', 'x\u0000y'), later, now)).toBe(true);
      expect(await first.mark(oneTimeKey('a', 'x', 'y'), later, now)).toBe(false);
    });

    it('stores only the SHA-256 of a key, never the value', async () => {
      await first.mark(oneTimeKey('token', 'secret-value-123'), later, now);
      const keys = await storedKeys();
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
      expect(keys.join()).not.toContain('secret-value-123');
    });

    it('keeps a mark past its expiry for the grace, then lets it go and drops it', async () => {
      const key = oneTimeKey('nonce', 'n1');
      expect(await first.mark(key, later, now)).toBe(true);
      const withinGrace = later + options.graceMs - 1;
      expect(await first.isMarked(key, withinGrace)).toBe(true);
      expect(await first.mark(key, withinGrace + 60_000, withinGrace)).toBe(false);
      const past = later + options.graceMs + 1;
      expect(await first.isMarked(key, past)).toBe(false);
      // Another key's mark drops the expired row.
      expect(await second.mark(oneTimeKey('nonce', 'n2'), past + 60_000, past)).toBe(true);
      expect(await storedKeys()).toHaveLength(1);
      // An expired key may be marked again (its use is refused by its own expiry anyway).
      expect(await first.mark(key, past + 60_000, past)).toBe(true);
      expect(await first.mark(key, past + 60_000, past)).toBe(false);
    });

    it('refuses a malformed namespace', () => {
      expect(() => oneTimeKey('has space', 'x')).toThrow(/namespace/);
      expect(() => oneTimeKey('', 'x')).toThrow(/namespace/);
    });
  });
}
