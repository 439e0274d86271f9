import { describe, expect, it } from '@jest/globals';
import { MemoryKvStore } from '@itp/stores';
import { FailureCounter } from '../rate-limit/failure-counter.js';
import { failureLimit } from './failure-limit.js';

describe('failureLimit: a limit the operator can switch off', () => {
  it('is a FailureCounter for a max above 0, none for 0', () => {
    const kv = new MemoryKvStore();
    expect(failureLimit(kv, { name: 'on', max: 1, windowMs: 60_000 })).toBeInstanceOf(
      FailureCounter,
    );
    expect(failureLimit(kv, { name: 'off', max: 0, windowMs: 60_000 })).toBeUndefined();
  });
});
