import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { context, type Context } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import type { Counter } from 'prom-client';
import { REQUEST_ID_HEADER, type Logger } from '@itp/service-kit';
import { mergeVary } from './merge-vary.js';
import { mayRetry } from '../upstreams/retry-policy.js';
import type { UpstreamBalancer, UpstreamTarget } from '../upstreams/upstream-balancer.js';
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
  /** The request's trace context (tracing on): the forwarder's own log lines are written in it. */
  traceContext?: Context | undefined;
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
  REQUEST_ID_HEADER, // the gateway's own request id is on the answer already (service.observe)
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
 * The answer's headers from the upstream's raw header list (undici's name/value Buffers), in one
 * pass: hop-by-hop headers, `x-powered-by`, the upstream's `x-request-id` (the gateway's is set
 * already) and every `access-control-*` (the gateway is the only CORS authority) dropped, repeated
 * headers kept as a list, and `Vary` merged with the gateway's own (`Vary: Origin`) when the
 * upstream sent one (else the gateway's stays as set).
 */
export function answerHeaders(raw: Buffer[], res: ServerResponse): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  let vary: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    if (DROPPED_RESPONSE_HEADERS.has(name) || name.startsWith('access-control-')) continue;
    const value = raw[i + 1]!.toString('latin1');
    if (name === 'vary') {
      (vary ??= []).push(value);
      continue;
    }
    const seen = out[name];
    if (seen === undefined) out[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else out[name] = [seen as string, value];
  }
  if (vary) {
    const merged = mergeVary(res.getHeader('vary'), vary);
    if (merged) out.vary = merged;
  }
  return out;
}

const TIMEOUT = new Error('upstream timeout');
const CLIENT_GONE = new Error('client gone');

/**
 * One forwarded request, as undici's dispatch handler (the callback API of `Dispatcher.dispatch`,
 * which undici's own Pool calls without a wrapper): no Promise, AsyncResource, AbortController or
 * stream.finished per request, as `Pool.stream` makes. The deadline aborts through the `abort`
 * undici hands over when the request gets a connection; a request still queued for one is
 * answered 504 at once and aborted when it is connected (what an AbortSignal did).
 */
class Forwarding implements Dispatcher.DispatchHandler {
  private target: UpstreamTarget;
  private abortUpstream: ((err?: Error) => void) | undefined;
  /** undici's resume of a paused answer (onHeaders), for the client's `drain`. */
  private resumeUpstream: (() => void) | undefined;
  /** Why the upstream request is to be stopped (timeout, client gone), before undici connected it. */
  private reason: Error | undefined;
  private answered = false;
  private retried = false;
  /** Answered, failed or given up: nothing more to do. */
  private done = false;
  private readonly deadline: NodeJS.Timeout;

  constructor(
    private readonly shared: Shared,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly outgoing: Outgoing,
    private readonly method: Dispatcher.HttpMethod,
  ) {
    this.target = shared.balancer.pick();
    this.deadline = setTimeout(this.onDeadline, shared.timeoutMs);
  }

  start(): void {
    this.res.on('close', this.onClientGone);
    this.send();
  }

  private send(): void {
    this.target.pool.dispatch(
      {
        path: this.target.basePath + (this.req.url ?? '/'),
        method: this.method,
        headers: this.outgoing.headers,
        body: this.outgoing.body,
        bodyTimeout: this.shared.timeoutMs,
      },
      this,
    );
  }

  private stopUpstream(reason: Error): void {
    this.reason = reason;
    this.abortUpstream?.(reason);
  }

  private readonly onDeadline = (): void => {
    if (this.done) return;
    this.stopUpstream(TIMEOUT);
    this.fail('timeout');
  };

  private readonly onClientGone = (): void => {
    // The client left before the answer was complete: stop the upstream work too.
    if (this.done || this.res.writableFinished) return;
    this.done = true;
    clearTimeout(this.deadline);
    this.stopUpstream(CLIENT_GONE);
  };

  private log(write: () => void): void {
    const trace = this.outgoing.traceContext;
    if (trace) context.with(trace, write);
    else write();
  }

  private fail(failure: UpstreamFailure, err?: unknown): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.deadline);
    const { res, req, shared, outgoing } = this;
    if (res.destroyed || req.socket.destroyed) return; // the client is gone: nobody to answer
    const name = shared.upstream.name;
    shared.failures?.inc({ upstream: name, reason: failure });
    this.log(() =>
      shared.logger.warn(
        {
          reqId: outgoing.requestId,
          upstream: name,
          replica: this.target.index + 1,
          failure,
          code: errorCode(err),
        },
        `${name} ${failure === 'timeout' ? 'timed out' : 'unavailable'}`,
      ),
    );
    if (res.headersSent) {
      // Part of the upstream's answer went out already: cut the connection, never a mixed body.
      if (!res.writableEnded) res.destroy();
      return;
    }
    const { status, body } = upstreamFailureResponse(
      shared.upstream,
      failure,
      shared.timeoutMs,
      outgoing.body,
    );
    const payload = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(payload),
    });
    res.end(payload);
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.reason) {
      abort(this.reason);
      return;
    }
    this.abortUpstream = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true; // 1xx: not passed on
    if (this.done) return true;
    this.answered = true;
    clearTimeout(this.deadline);
    this.shared.balancer.markAnswered(this.target);
    const res = this.res;
    this.resumeUpstream = resume;
    res.writeHead(statusCode, answerHeaders(rawHeaders, res));
    return true;
  }

  onData(chunk: Buffer): boolean {
    const res = this.res;
    if (this.done || res.destroyed) return true;
    if (res.write(chunk)) return true;
    // The client reads slower than the upstream sends: pause undici until the answer drains.
    res.once('drain', this.resumeUpstream!);
    return false;
  }

  onComplete(): void {
    if (this.done) return;
    this.done = true;
    if (!this.res.destroyed) this.res.end();
  }

  onError(err: Error): void {
    if (this.done) return;
    if (this.reason === TIMEOUT) {
      this.fail('timeout', err);
      return;
    }
    const { shared, res } = this;
    const code = errorCode(err);
    if (code === 'ECONNREFUSED') shared.balancer.markRefused(this.target);
    if (!this.retried && !this.answered && !res.headersSent && mayRetry(this.method, code)) {
      this.retried = true;
      const name = shared.upstream.name;
      shared.retries?.inc({ upstream: name, reason: String(code) });
      this.log(() =>
        shared.logger.info(
          { reqId: this.outgoing.requestId, upstream: name, replica: this.target.index + 1, code },
          `${name}: retrying once`,
        ),
      );
      this.target = shared.balancer.pick(this.target);
      this.abortUpstream = undefined;
      this.send();
      return;
    }
    this.fail('unavailable', err);
  }
}

type Shared = Pick<
  ForwarderOptions,
  'upstream' | 'balancer' | 'timeoutMs' | 'logger' | 'failures' | 'retries'
>;

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
  const shared: Shared = { ...options };
  return (req, res, outgoing) => {
    new Forwarding(
      shared,
      req,
      res,
      outgoing,
      (req.method ?? 'GET') as Dispatcher.HttpMethod,
    ).start();
  };
}
