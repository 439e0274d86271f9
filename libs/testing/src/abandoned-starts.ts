/**
 * Starts that their spec file gave up on. A `beforeAll` that times out (jest's hook timeout; on a
 * loaded machine a whole service harness can take longer) does not stop the start it awaits: the
 * start finishes later, after the file's `afterAll` found nothing to close, and its servers, Redis
 * and PostgreSQL clients and timers stay in the jest worker for the rest of the run (connections
 * to the run's Redis between spec files; at the end "a worker process has failed to exit
 * gracefully"). A harness wraps its start in `closedIfAbandoned`; the jest setup file
 * tools/jest/close-abandoned-starts.ts calls `closeAbandonedStarts` in the root `afterAll`, which
 * runs after every `describe` block's own `afterAll`.
 */

/** What a start resolves to: something that can be closed. */
export interface Closeable {
  close(): Promise<void>;
}

/** Starts of this spec file (jest gives each file its own module registry) not yet settled. */
const pending = new Set<Promise<Closeable>>();

/**
 * Returns `start`, remembered until it settles so that `closeAbandonedStarts` can find it. Its
 * result's `close` becomes idempotent (a start nested in another, both abandoned, is closed by
 * both).
 */
export function closedIfAbandoned<T extends Closeable>(start: Promise<T>): Promise<T> {
  pending.add(start);
  const forget = () => {
    pending.delete(start);
  };
  // Registered before the caller's await: the caller gets the idempotent close.
  start.then((started) => {
    const close = started.close.bind(started);
    let closing: Promise<void> | undefined;
    started.close = () => (closing ??= close());
    forget();
  }, forget);
  return start;
}

/**
 * Waits for the starts still pending now (nothing awaits them any more: their hook has given up)
 * and closes each one that succeeds. Starts that settled earlier are their spec's to close and are
 * left alone. Resolves with how many were closed.
 */
export async function closeAbandonedStarts(): Promise<number> {
  // The last started first: a start nested in another has registered before it.
  const abandoned = [...pending].reverse();
  const started = await Promise.allSettled(abandoned);
  let closed = 0;
  for (const result of started) {
    if (result.status !== 'fulfilled') continue;
    await result.value.close().catch(() => undefined);
    closed += 1;
  }
  return closed;
}
