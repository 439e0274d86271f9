/**
 * When the gateway sends a request to its upstream a second time (once, on a fresh connection)
 * after the first attempt failed before any byte of an answer came back. Timeouts are never
 * retried (the upstream may still be working on it, and the client's time is spent), nor is
 * anything after an answer has started.
 *
 * - Failures before the request can have reached the upstream — the connection was refused, or
 *   the name did not resolve — are retried for every method, POST (JSON-RPC) included: nothing
 *   was sent, so nothing can happen twice. Typical: a replica restarting behind a Service
 *   address, where the next connection reaches another one.
 * - Failures of a connection the request went out on (reset, broken pipe: an upstream that
 *   closed a kept-alive connection just as it was reused, or that crashed) are retried only for
 *   GET and HEAD (idempotent reads). A POST — every JSON-RPC call, every REST write — may have
 *   been processed, so it is answered 502 instead: a transfer or createAddress must never run
 *   twice because the gateway guessed.
 */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const CONNECTION_BROKEN = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const IDEMPOTENT_READS = new Set(['GET', 'HEAD']);

/** Whether a request that failed with `code` (a Node socket error code) may be sent again. */
export function mayRetry(method: string | undefined, code: unknown): boolean {
  if (typeof code !== 'string') return false;
  if (NOT_SENT.has(code)) return true;
  return IDEMPOTENT_READS.has((method ?? '').toUpperCase()) && CONNECTION_BROKEN.has(code);
}
