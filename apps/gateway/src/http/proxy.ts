import { Agent as HttpAgent, type ClientRequest, type IncomingMessage } from 'node:http';
import type { ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { RequestHandler } from 'express';
import { createProxyMiddleware, type Plugin } from 'http-proxy-middleware';
import type { Counter } from 'prom-client';
import { REQUEST_ID_HEADER, type Logger } from '@itp/service-kit';
import { mergeVary } from './merge-vary.js';
import { upstreamFailureResponse, type UpstreamFailure } from '../upstreams/upstream-failure.js';
import type { Upstream } from '../upstreams/upstreams.js';

export interface UpstreamProxyOptions {
  upstream: Upstream;
  /** Time the upstream has to start answering, and the longest silence while it streams. */
  timeoutMs: number;
  /** Bound of the keep-alive connection pool to this upstream. */
  maxSockets: number;
  logger: Logger;
  /** Counts failures by upstream and reason, when given. */
  failures?: Counter<'upstream' | 'reason'>;
}

export interface UpstreamProxy {
  /** Forwards the request (path unchanged) to the upstream; mount after readBody. */
  handle: RequestHandler;
  /** The keep-alive pool to the upstream. */
  agent: HttpAgent;
  /** Closes the pooled connections (on shutdown). */
  close(): void;
}

/** Idle pooled connections are dropped after this (below service-kit's 65 s keepAliveTimeout). */
const FREE_SOCKET_TIMEOUT_MS = 30_000;

/** Per-request state of one forwarded exchange. */
interface Exchange {
  deadline: NodeJS.Timeout | undefined;
  proxyReq: ClientRequest | undefined;
  timedOut: boolean;
  failed: boolean;
}

function timeoutError(): Error {
  return Object.assign(new Error('upstream did not answer in time'), { code: 'ETIMEDOUT' });
}

function isResponse(res: ServerResponse | Socket): res is ServerResponse {
  return typeof (res as ServerResponse).writeHead === 'function';
}

/**
 * http-proxy pipes `options.buffer` (instead of the consumed request stream) into the upstream
 * request: hand it the body readBody collected. The stream is written whenever the pooled
 * connection becomes free, so this also holds while requests queue for a socket.
 */
const bufferedBody: Plugin = (proxyServer) => {
  const web = proxyServer.web.bind(proxyServer);
  proxyServer.web = (req, res, opts, callback) => {
    const body: unknown = (req as { body?: unknown }).body;
    const options =
      Buffer.isBuffer(body) && body.length > 0 ? { ...opts, buffer: Readable.from([body]) } : opts;
    if (callback) web(req, res, options ?? {}, callback);
    else if (options) web(req, res, options);
    else web(req, res);
  };
};

function upstreamAgent(url: string, maxSockets: number): HttpAgent {
  const options = {
    keepAlive: true,
    maxSockets,
    maxFreeSockets: maxSockets,
    timeout: FREE_SOCKET_TIMEOUT_MS,
    scheduling: 'lifo' as const,
  };
  return new URL(url).protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
}

/**
 * One reverse proxy per upstream (http-proxy-middleware 3) over a bounded keep-alive pool.
 * Failures never hang and never produce HTML: no connection → 502, no answer within `timeoutMs`
 * (counted from the moment the gateway starts forwarding, so time spent waiting for a pooled
 * connection counts too) → 504, in the REST or JSON-RPC shape of the upstream (upstream-failure.ts).
 */
export function createUpstreamProxy(options: UpstreamProxyOptions): UpstreamProxy {
  const { upstream, timeoutMs, logger } = options;
  const agent = upstreamAgent(upstream.url, options.maxSockets);
  const exchanges = new WeakMap<IncomingMessage, Exchange>();

  const fail = (
    req: IncomingMessage,
    res: ServerResponse,
    failure: UpstreamFailure,
    err?: unknown,
  ): void => {
    const exchange = exchanges.get(req);
    if (exchange?.failed) return;
    if (exchange) exchange.failed = true;
    if (res.destroyed || req.socket.destroyed) return; // the client is gone: nobody to answer
    options.failures?.inc({ upstream: upstream.name, reason: failure });
    logger.warn(
      { reqId: req.id, upstream: upstream.name, failure, code: (err as { code?: unknown })?.code },
      `${upstream.name} ${failure === 'timeout' ? 'timed out' : 'unavailable'}`,
    );
    if (res.headersSent) {
      // Part of the upstream's answer went out already: cut the connection, never a mixed body.
      if (!res.writableEnded) res.destroy();
      return;
    }
    const { status, body } = upstreamFailureResponse(
      upstream,
      failure,
      timeoutMs,
      (req as { body?: unknown }).body,
    );
    const payload = JSON.stringify(body);
    res.statusCode = status;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('content-length', Buffer.byteLength(payload));
    res.end(payload);
  };

  const middleware = createProxyMiddleware({
    target: upstream.url,
    agent,
    changeOrigin: true,
    xfwd: false, // forward-headers.ts sets X-Forwarded-* itself
    plugins: [bufferedBody],
    on: {
      proxyReq: (proxyReq, req) => {
        const exchange = exchanges.get(req);
        if (!exchange) return;
        exchange.proxyReq = proxyReq;
        if (exchange.timedOut) {
          proxyReq.destroy(timeoutError()); // answered 504 while it waited for a connection
          return;
        }
        // Idle limit on the connection: also covers an upstream that stalls mid-response.
        proxyReq.setTimeout(timeoutMs, () => {
          exchange.timedOut = true;
          proxyReq.destroy(timeoutError());
        });
      },
      proxyRes: (proxyRes, req, res) => {
        clearTimeout(exchanges.get(req)?.deadline);
        const headers = proxyRes.headers;
        headers[REQUEST_ID_HEADER] = String(req.id);
        delete headers['x-powered-by'];
        // The gateway is the only CORS authority: upstream CORS headers never reach clients.
        for (const name of Object.keys(headers)) {
          if (name.startsWith('access-control-')) delete headers[name];
        }
        const vary = mergeVary(res.getHeader('vary'), headers.vary);
        if (vary) headers.vary = vary;
      },
      error: (err, req, res) => {
        if (!isResponse(res)) {
          res.destroy();
          return;
        }
        fail(req, res, exchanges.get(req)?.timedOut ? 'timeout' : 'unavailable', err);
      },
    },
  });

  const handle: RequestHandler = (req, res, next) => {
    const exchange: Exchange = {
      deadline: undefined,
      proxyReq: undefined,
      timedOut: false,
      failed: false,
    };
    exchanges.set(req, exchange);
    exchange.deadline = setTimeout(() => {
      exchange.timedOut = true;
      if (exchange.proxyReq) exchange.proxyReq.destroy(timeoutError());
      else fail(req, res, 'timeout'); // still waiting for a pooled connection
    }, timeoutMs);
    res.once('close', () => {
      clearTimeout(exchange.deadline);
      // The client left before the answer was complete: stop the upstream work too.
      if (!res.writableFinished) exchange.proxyReq?.destroy();
    });
    return middleware(req, res, next);
  };

  return {
    handle,
    agent,
    close: () => agent.destroy(),
  };
}
