/**
 * Waiting on an event instead of sleeping for a guessed time (issue 19 item 6, "clocks, not
 * sleeps"): `eventually` polls a condition at a short interval until it holds, bounded by a
 * deadline, so a test goes on as soon as the thing happened and fails (never hangs) when it does
 * not; `manualClock` is the clock to inject where a class takes `now: () => number`. No jest in
 * its imports: unit specs take it from `@itp/testing/wait` without loading the infra helpers.
 */

export interface EventuallyOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Pause between two probes (default 10 ms). */
  intervalMs?: number;
}

/**
 * Calls `probe` until it returns something other than `undefined` or `false`, and resolves with
 * that; throws naming `what` once `timeoutMs` has passed (the last probe's error, if it threw).
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 10_000, intervalMs = 10 }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined && found !== false) return found;
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A clock that stands still until the test moves it (what `now: () => number` options take). */
export interface ManualClock {
  now: () => number;
  advance(ms: number): void;
}

export function manualClock(start = Date.now()): ManualClock {
  let at = start;
  return {
    now: () => at,
    advance: (ms) => {
      at += ms;
    },
  };
}
