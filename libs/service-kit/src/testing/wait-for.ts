/**
 * Test helper (`@itp/service-kit/testing/wait-for`, re-exported by @itp/testing/wait-for, where
 * its spec is); here because service-kit's own specs need it and cannot import @itp/testing (it
 * depends on service-kit). Never imported by production code.
 *
 * Waiting on an event instead of sleeping a fixed time: polls `condition` every `intervalMs` until
 * it gives a truthy value and resolves with that value; throws an Error naming `what` once
 * `timeoutMs` has passed (a deadline for a hung test, not a speed claim). A condition that throws
 * counts as "not yet"; the last error it threw is the timeout error's cause. The condition is
 * always checked at least once, and once more at the deadline.
 */
export interface WaitForOptions {
  /** What is awaited, for the timeout error ("block-rpc to restart"). */
  what: string;
  /** Default 10 000 ms. */
  timeoutMs?: number;
  /** Pause between two checks. Default 20 ms. */
  intervalMs?: number;
}

type Truthy<T> = Exclude<T, false | 0 | 0n | '' | null | undefined>;

export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { what, timeoutMs = 10_000, intervalMs = 20 }: WaitForOptions,
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as Truthy<T>;
    } catch (err) {
      lastError = err;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}`,
        lastError === undefined ? undefined : { cause: lastError },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, left)));
  }
}
