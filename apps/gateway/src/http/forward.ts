import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Counter } from 'prom-client';
import { REQUEST_ID_HEADER, type Logger } from '@itp/service-kit';
import { mergeVary } from './merge-vary.js';
import { mayRetry } from '../upstreams/retry-policy.js';
import type { UpstreamBalancer } from '../upstreams/upstream-balancer.js';
import { upstreamFailureResponse, type UpstreamFailure } from '../upstreams/upstream-failure.js';
import type { Upstream } from '../upstreams/upstreams.js';

export interface ForwarderOptions {
  upstream: Upstream;
  balancer: UpstreamBalancer;
  /** Time the upstream has to start answering (from the moment forwarding starts, a wait for a
   * pooled connection included), and the longest silence while it streams. */
  timeoutMs: number;
  logger: Logger;
  /** Counts failures by upstream and reason, when given. */
  failures?: Counter<'upstream' | 'reason'>;
  /** Counts second attempts (retry-policy.ts) by upstream and error code, when given. */
  retries?: Counter<'upstream' | 'reason'>;
}

/** One request to forward: what the edge has read and decided. */
export interface Outgoing {
  requestId: string;
  headers: Record<string, string | string[]>;
  /** The body read within the limit; undefined when the request has none. */
  body: Buffer | undefined;
}

export type Forward = (req: IncomingMessage, res: ServerResponse, outgoing: Outgoing) => void;

/** Response headers about the upstream connection or that the gateway owns: never passed on. */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding', // node frames the answer itself
  'trailer',
  'upgrade',
  'x-powered-by',
]);

/** A Node socket error code for an undici failure (undici names a dropped socket its own way). */
function errorCode(err: unknown): string | undefined {
  const { code, cause } = (err ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  if (code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return typeof cause?.code === 'string' ? cause.code : 'ECONNRESET';
  }
  if (typeof code === 'string') return code;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * Builds the answer's headers from the upstream's: hop-by-hop headers, `x-powered-by` and every
 * `access-control-*` (the gateway is the only CORS authority) dropped, the gateway's request id
 * set, and `Vary` merged with the gateway's own (`Vary: Origin`).
 */
function answerHeaders(
  upstream: IncomingHttpHeaders,
  res: ServerResponse,
  requestId: string,
): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const name in upstream) {
    if (DROPPED_RESPONSE_HEADERS.has(name) || name.startsWith('access-control-')) continue;
    out[name] = upstream[name];
  }
  out[REQUEST_ID_HEADER] = requestId;
  const vary = mergeVary(res.getHeader('vary'), upstream.vary);
  if (vary) out.vary = vary;
  return out;
}

/**
 * Forwarding to one upstream service over an undici Pool per replica (round robin with passive
 * health, upstream-balancer.ts): the path unchanged (after the replica's base path), the body as
 * read, the answer streamed back. Failures never hang and never produce HTML: no connection →
 * 502, no answer within `timeoutMs` → 504, in the REST or JSON-RPC shape of the upstream
 * (upstream-failure.ts). A request that failed before any answer came back is sent once more, to
 * the next replica when there is one, when retry-policy.ts allows it (refused connections; broken
 * ones for GET/HEAD), within the same deadline.
 */
export function createForwarder(options: ForwarderOptions): Forward {
  const { upstream, balancer, timeoutMs, logger } = options;
  const name = upstream.name;

  return (req, res, outgoing) => {
    const method = (req.method ?? 'GET') as Dispatcher.HttpMethod;
    let target = balancer.pick();
    let controller = new AbortController();
    let timedOut = false;
    let answered = false;
    let retried = false;
    let done = false;

    const fail = (failure: UpstreamFailure, err?: unknown): void => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      if (res.destroyed || req.socket.destroyed) return; // the client is gone: nobody to answer
      options.failures?.inc({ upstream: name, reason: failure });
      logger.warn(
        {
          reqId: outgoing.requestId,
          upstream: name,
          replica: target.index + 1,
          failure,
          code: errorCode(err),
        },
        `${name} ${failure === 'timeout' ? 'timed out' : 'unavailable'}`,
      );
      if (res.headersSent) {
        // Part of the upstream's answer went out already: cut the connection, never a mixed body.
        if (!res.writableEnded) res.destroy();
        return;
      }
      const { status, body } = upstreamFailureResponse(upstream, failure, timeoutMs, outgoing.body);
      const payload = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(payload),
      });
      res.end(payload);
    };

    const deadline = setTimeout(() => {
      timedOut = true;
      controller.abort();
      fail('timeout');
    }, timeoutMs);

    const onClientGone = (): void => {
      // The client left before the answer was complete: stop the upstream work too.
      if (!res.writableFinished && !done) {
        done = true;
        clearTimeout(deadline);
        controller.abort();
      }
    };
    res.once('close', onClientGone);

    const factory: Dispatcher.StreamFactory = ({ statusCode, headers }) => {
      answered = true;
      clearTimeout(deadline);
      balancer.markAnswered(target);
      res.writeHead(statusCode, answerHeaders(headers, res, outgoing.requestId));
      return res;
    };

    const onError = (err: unknown): void => {
      if (done) return;
      if (timedOut) {
        fail('timeout', err);
        return;
      }
      const code = errorCode(err);
      if (code === 'ECONNREFUSED') balancer.markRefused(target);
      if (!retried && !answered && !res.headersSent && mayRetry(method, code)) {
        retried = true;
        options.retries?.inc({ upstream: name, reason: String(code) });
        logger.info(
          { reqId: outgoing.requestId, upstream: name, replica: target.index + 1, code },
          `${name}: retrying once`,
        );
        target = balancer.pick(target);
        controller = new AbortController();
        send();
        return;
      }
      fail('unavailable', err);
    };

    const onDone = (): void => {
      if (done) return;
      done = true;
      res.removeListener('close', onClientGone);
    };

    const send = (): void => {
      target.pool
        .stream(
          {
            path: target.basePath + (req.url ?? '/'),
            method,
            headers: outgoing.headers,
            body: outgoing.body,
            signal: controller.signal,
            bodyTimeout: timeoutMs,
          },
          factory,
        )
        .then(onDone, onError);
    };
    send();
  };
}
