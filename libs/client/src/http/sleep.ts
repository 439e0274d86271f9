import { AbortedError } from '../errors/error-classes.js';

/** Waits `ms` milliseconds; rejects with AbortedError as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal, operation?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = (): AbortedError =>
      new AbortedError('aborted by the caller', {
        source: 'client',
        operation,
        cause: signal?.reason,
      });
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
