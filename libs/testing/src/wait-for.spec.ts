import { describe, expect, it } from '@jest/globals';
import { waitFor } from './wait-for.js';

describe('waitFor', () => {
  it('resolves with the first truthy value the condition gives', async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        calls += 1;
        return calls >= 3 ? { calls } : undefined;
      },
      { what: 'the third call', intervalMs: 1 },
    );
    expect(value).toEqual({ calls: 3 });
    expect(calls).toBe(3);
  });

  it('awaits an async condition and does not wait when it holds at once', async () => {
    const startedAt = Date.now();
    expect(await waitFor(async () => 'ready', { what: 'x', intervalMs: 1_000 })).toBe('ready');
    expect(Date.now() - startedAt).toBeLessThan(500);
  });

  it('throws naming what it waited for once the deadline has passed', async () => {
    let calls = 0;
    const startedAt = Date.now();
    await expect(
      waitFor(
        () => {
          calls += 1;
          return false;
        },
        { what: 'the moon', timeoutMs: 60, intervalMs: 10 },
      ),
    ).rejects.toThrow('timed out after 60 ms waiting for the moon');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(55);
    expect(calls).toBeGreaterThan(1);
  });

  it('treats a throwing condition as "not yet" and keeps its last error as the cause', async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        calls += 1;
        if (calls < 3) throw new Error('not up yet');
        return calls;
      },
      { what: 'the server', intervalMs: 1 },
    );
    expect(value).toBe(3);
    const failure = await waitFor(
      () => {
        throw new Error('still down');
      },
      { what: 'the server', timeoutMs: 20, intervalMs: 5 },
    ).catch((err: unknown) => err as Error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/waiting for the server/);
    expect(((failure as Error).cause as Error).message).toBe('still down');
  });

  it('checks at least once even with no time left', async () => {
    expect(await waitFor(() => 7, { what: 'x', timeoutMs: 0 })).toBe(7);
    await expect(waitFor(() => 0, { what: 'zero', timeoutMs: 0 })).rejects.toThrow(/zero/);
  });
});
