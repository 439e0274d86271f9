/**
 * Validates a time to live for both adapters alike: a finite number above zero, rounded up to
 * whole milliseconds. Redis rejects `PX 0`; accepting it in memory would make the adapters differ.
 */
export function toTtlMs(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`ttlMs must be a finite number above 0, got ${ttlMs}`);
  }
  return Math.ceil(ttlMs);
}
