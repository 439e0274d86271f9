import type { KvStore } from '@itp/stores';
import { FailureCounter, type FailureCounterOptions } from '../rate-limit/failure-counter.js';

/**
 * A limit that the operator can switch off: a FailureCounter, or undefined (no limit) when its
 * `max` is 0 or less (the *_PER_MINUTE settings).
 */
export function failureLimit(
  kv: KvStore,
  options: FailureCounterOptions,
): FailureCounter | undefined {
  return options.max > 0 ? new FailureCounter(kv, options) : undefined;
}
