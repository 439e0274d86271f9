/** A signal that fires when the caller's signal does or `timeoutMs` passes, and which of the two it was. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** true once the timeout (not the caller) aborted */
  timedOut(): boolean;
  /** Stops the timer and the listener; call when the request is over. */
  clear(): void;
}

/**
 * Combines the caller's AbortSignal with a timeout (0 or undefined: none). Written out instead of
 * AbortSignal.any / AbortSignal.timeout so that it works in every runtime with fetch.
 */
export function deadline(signal: AbortSignal | undefined, timeoutMs: number | undefined): Deadline {
  const controller = new AbortController();
  let expired = false;
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs !== undefined && timeoutMs > 0
      ? setTimeout(() => {
          expired = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    timedOut: () => expired,
    clear: () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
