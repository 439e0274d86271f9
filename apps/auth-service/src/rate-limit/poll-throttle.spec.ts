import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MemoryKvStore } from '@itp/stores';
import { PollThrottle } from './poll-throttle.js';
import { SlowDownError } from '../errors.js';

describe('PollThrottle', () => {
  let kv: MemoryKvStore;
  beforeEach(() => {
    kv = new MemoryKvStore();
  });
  afterEach(() => kv.close());

  it('lets one poll per interval through and answers slow_down (429) to the next', async () => {
    const throttle = new PollThrottle(kv, 60_000);
    await throttle.pass('client-a|req-1');
    const err = await throttle.pass('client-a|req-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SlowDownError);
    expect((err as SlowDownError).code).toBe('slow_down');
    expect((err as SlowDownError).status).toBe(429);
    expect((err as SlowDownError).retryAfterSeconds).toBe(60);
    await expect(throttle.pass('client-a|req-2')).resolves.toBeUndefined();
  });

  it('is off with an interval of 0', async () => {
    const throttle = new PollThrottle(kv, 0);
    await throttle.pass('x');
    await expect(throttle.pass('x')).resolves.toBeUndefined();
  });
});
