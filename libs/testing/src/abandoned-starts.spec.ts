import { describe, expect, it } from '@jest/globals';
import { closeAbandonedStarts, closedIfAbandoned } from './abandoned-starts.js';

function deferredStart() {
  const closes: string[] = [];
  let finish!: () => void;
  let fail!: (err: Error) => void;
  const start = new Promise<{ close(): Promise<void> }>((resolve, reject) => {
    finish = () => resolve({ close: async () => void closes.push('closed') });
    fail = reject;
  });
  return { start, finish, fail, closes };
}

describe('closeAbandonedStarts', () => {
  it('closes a start that finishes after its hook gave up, once it has finished', async () => {
    const late = deferredStart();
    void closedIfAbandoned(late.start);
    const closing = closeAbandonedStarts();
    expect(late.closes).toEqual([]);
    late.finish();
    expect(await closing).toBe(1);
    expect(late.closes).toEqual(['closed']);
  });

  it('leaves a start that had settled (its spec closes it) alone, and skips a failed start', async () => {
    const awaited = deferredStart();
    const failed = deferredStart();
    const started = closedIfAbandoned(awaited.start);
    const failing = closedIfAbandoned(failed.start);
    awaited.finish();
    await started;
    failed.fail(new Error('port taken'));
    await expect(failing).rejects.toThrow('port taken');
    expect(await closeAbandonedStarts()).toBe(0);
    expect(awaited.closes).toEqual([]);
  });

  it('a close that fails does not stop the others from being closed', async () => {
    let finishBroken!: () => void;
    void closedIfAbandoned(
      new Promise<{ close(): Promise<void> }>((resolve) => {
        finishBroken = () => resolve({ close: () => Promise.reject(new Error('already gone')) });
      }),
    );
    const late = deferredStart();
    void closedIfAbandoned(late.start);
    const closing = closeAbandonedStarts();
    finishBroken();
    late.finish();
    expect(await closing).toBe(2);
    expect(late.closes).toEqual(['closed']);
  });

  it('a nested start abandoned with the one around it is closed once (close is idempotent)', async () => {
    const inner = deferredStart();
    const innerStart = closedIfAbandoned(inner.start);
    const outerStart = closedIfAbandoned(
      innerStart.then((running) => ({ close: () => running.close() })),
    );
    const closing = closeAbandonedStarts();
    inner.finish();
    expect(await closing).toBe(2);
    expect(inner.closes).toEqual(['closed']);
    await outerStart;
  });
});
