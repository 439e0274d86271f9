import { errorBody } from '@itp/service-kit';
import { UpstreamTimeoutError, UpstreamUnavailableError } from '../errors.js';
import type { Upstream } from './upstreams.js';

/** `unavailable`: no connection or a broken one (502); `timeout`: no answer in time (504). */
export type UpstreamFailure = 'unavailable' | 'timeout';

/** JSON-RPC 2.0 code for a transport error (docs/api.md §6). */
export const JSONRPC_TRANSPORT_ERROR = -32300;

export interface FailureResponse {
  status: 502 | 504;
  body: unknown;
}

/** The id of a single JSON-RPC request in a raw body, else null (batch, notification, not JSON). */
export function jsonRpcIdOf(body: unknown): string | number | null {
  if (!Buffer.isBuffer(body) || body.length === 0) return null;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const id = (parsed as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/**
 * What the gateway answers when an upstream cannot be reached or does not answer in time.
 *
 * REST upstreams: the REST error shape, `{"error":{"code":"502"|"504","message":...}}`.
 *
 * JSON-RPC upstreams (/token, /token/erc20, /block): a JSON-RPC error envelope with code -32300
 * (transport error), `message` and `msg` carrying the same text (docs/api.md §6), and the id of the
 * request when it was a single call — sent with HTTP 502 / 504, not 200. docs/api.md §6's "HTTP 200
 * for every JSON-RPC answer" covers answers of the JSON-RPC services themselves; this is the gateway
 * reporting that no service answered, so the status says so to load balancers, monitors and retry
 * logic, while JSON-RPC clients that read the body still get a well-formed envelope.
 */
export function upstreamFailureResponse(
  upstream: Pick<Upstream, 'name' | 'protocol'>,
  failure: UpstreamFailure,
  timeoutMs: number,
  requestBody: unknown,
): FailureResponse {
  const error =
    failure === 'timeout'
      ? new UpstreamTimeoutError(upstream.name, timeoutMs)
      : new UpstreamUnavailableError(upstream.name);
  const status = error.status as 502 | 504;
  if (upstream.protocol === 'rest') return { status, body: errorBody(error.code, error.message) };
  const text = `transport error: ${error.message}`;
  return {
    status,
    body: {
      jsonrpc: '2.0',
      id: jsonRpcIdOf(requestBody),
      error: { code: JSONRPC_TRANSPORT_ERROR, message: text, msg: text },
    },
  };
}
