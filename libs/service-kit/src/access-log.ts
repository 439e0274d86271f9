import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, RequestHandler } from 'express';
import { accessLoggerOf, type Logger } from './logger.js';
import { requestIdFor } from './request-id.js';
import { requestTraceFields } from './tracing/trace-requests.js';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id (service-kit: a well-formed incoming x-request-id, else a new UUID). */
    id: string;
    /** A logger bound to `{ req: { id, method, url } }` (and the trace ids), made on first use. */
    log: Logger;
  }
}

/** Level of a request's access log line: 5xx error, 4xx warn, else info. */
export function accessLogLevel(status: number): 'error' | 'warn' | 'info' {
  return status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
}

/**
 * One access log line for a finished request: `{ req: { id, method, url }, res: { statusCode },
 * responseTime, traceId?, spanId? }` "request completed" (the fields pino-http wrote), nothing
 * else: bodies and headers can hold secrets. Skipped when the level is off.
 */
/**
 * The URL the client asked for: express's `originalUrl` (a mounted router trims `req.url`, so
 * block-rpc's `/block` logged as `/`), else the raw path of a request that never reached express.
 */
function requestUrl(req: IncomingMessage): string | undefined {
  return (req as { originalUrl?: string }).originalUrl ?? req.url;
}

export function logRequest(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  startedAt: number,
  // Where the line goes: accessLoggerOf(logger), looked up once by the caller.
  sink: Logger = accessLoggerOf(logger),
): void {
  const level = accessLogLevel(res.statusCode);
  if (!logger.isLevelEnabled(level)) return;
  sink[level](
    {
      req: { id, method: req.method, url: requestUrl(req) },
      res: { statusCode: res.statusCode },
      responseTime: Math.round(performance.now() - startedAt),
      ...requestTraceFields(res),
    },
    res.writableFinished ? 'request completed' : 'request aborted',
  );
}

/**
 * What pino-http did, for microseconds per request: `req.id` (requestIdFor, also sent back as
 * x-request-id), `req.log` (a child logger made only when a handler uses it: a getter on the
 * app's request prototype, defined once), and one access log line when the response is done
 * (not for `quiet` paths). No serialiser, no child logger and no redaction pass per request
 * unless something is logged.
 */
export function accessLog(
  app: Express,
  logger: Logger,
  quiet: ReadonlySet<string>,
): RequestHandler {
  const children = new WeakMap<object, Logger>();
  const sink = accessLoggerOf(logger);
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: IncomingMessage): Logger {
      let child = children.get(this);
      if (!child) {
        const res = (this as { res?: object }).res;
        child = logger.child({
          req: { id: this.id, method: this.method, url: requestUrl(this) },
          ...(res ? requestTraceFields(res) : {}),
        });
        children.set(this, child);
      }
      return child;
    },
  });
  return (req, res, next) => {
    const id = requestIdFor(req, res);
    req.id = id;
    const url = req.url;
    const query = url.indexOf('?');
    if (!quiet.has(query === -1 ? url : url.slice(0, query))) {
      const startedAt = performance.now();
      res.once('close', () => logRequest(logger, req, res, id, startedAt, sink));
    }
    next();
  };
}
