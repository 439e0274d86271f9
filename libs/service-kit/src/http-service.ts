import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Context } from '@opentelemetry/api';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import type { Registry } from 'prom-client';
import { accessLog, logRequest } from './access-log.js';
import { internalPortFor, metricsPortFor, type BaseConfig } from './config.js';
import { ConnectionDrain } from './connection-drain.js';
import { traceRawRequest, traceRequests } from './tracing/trace-requests.js';
import { notFoundHandler, restErrorHandler } from './error-handler.js';
import { healthRouter, type HealthState, type ReadinessCheck } from './health.js';
import { accessLoggerOf, flushAccessLog, type Logger } from './logger.js';
import { createHttpMetrics, type HttpMetrics } from './metrics.js';
import { requestIdFor } from './request-id.js';

/**
 * A route table answered on node:http directly, ahead of the express app (see
 * HttpService.setRawRoutes): returns true when it took the request, false to leave it to express.
 */
export type RawRoutes = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What HttpService.observe hands a raw route. */
export interface ObservedRequest {
  /** The request id (a well-formed incoming x-request-id, else a new one); also on the response. */
  id: string;
  /** The request's trace context when tracing is on (run the handler in it), else undefined. */
  traceContext: Context | undefined;
}

export interface ServiceOptions {
  name: string;
  config: Pick<
    BaseConfig,
    | 'HOST'
    | 'PORT'
    | 'SHUTDOWN_TIMEOUT_MS'
    | 'READINESS_TIMEOUT_MS'
    | 'METRICS_PORT'
    | 'METRICS_HOST'
  > & {
    /** The internal listener (`internal`): its port (default PORT + 100) and address. */
    INTERNAL_PORT?: number;
    INTERNAL_HOST?: string;
  };
  logger: Logger;
  /** Skip the access log for these paths (health probes, scrapes). */
  quietPaths?: string[];
  /**
   * Shutdown: an idle kept-alive connection is closed once nothing has been in flight for this
   * long (default 250 ms), so that a request already on its way on it is still served.
   */
  idleLingerMs?: number;
  /**
   * The public edge (the gateway): an incoming W3C trace context (`traceparent`, `tracestate`)
   * is never continued — a client could force sampling and choose trace ids — every request
   * starts a new trace. Services behind the gateway continue the gateway's.
   */
  publicEdge?: boolean;
}

/** Default of ServiceOptions.idleLingerMs. */
export const DEFAULT_IDLE_LINGER_MS = 250;
/** exitOnSignals ends the process this long after the drain's grace when closing hangs. */
const EXIT_BACKSTOP_MS = 5_000;

export type ShutdownHook = () => Promise<unknown> | unknown;

export interface RunningService {
  url: string;
  port: number;
  server: Server;
  /** The separate Prometheus listener: `${metricsUrl}/metrics`. */
  metricsUrl: string;
  /** The internal API's listener, when the service has one (HttpService.internal). */
  internalUrl?: string;
}

/**
 * The HTTP skeleton every service shares: request ids, access logs, metrics, health endpoints,
 * the REST error shape, and graceful shutdown. Features mount their routers on `app`, register
 * readiness checks and shutdown hooks, then call `listen()`.
 */
export class HttpService {
  readonly app: Express;
  readonly metrics: Registry;
  readonly logger: Logger;
  private readonly checks: ReadinessCheck[] = [];
  private readonly hooks: ShutdownHook[] = [];
  private readonly state: HealthState = { shuttingDown: false };
  private server: Server | undefined;
  private readonly drain = new ConnectionDrain();
  private internalApp: Express | undefined;
  private internalServer: Server | undefined;
  private readonly internalDrain = new ConnectionDrain();
  private metricsServer: Server | undefined;
  private closing: Promise<void> | undefined;
  private rawRoutes: RawRoutes | undefined;
  private readonly httpMetrics: HttpMetrics;
  private readonly quiet: Set<string>;
  /** Where access lines go (accessLoggerOf: batched for a logger of createLogger). */
  private readonly accessSink: Logger;

  constructor(private readonly options: ServiceOptions) {
    this.logger = options.logger;
    this.accessSink = accessLoggerOf(options.logger);
    this.quiet = new Set(
      options.quietPaths ?? ['/health/live', '/health/ready', '/health/ready/self', '/metrics'],
    );
    this.httpMetrics = createHttpMetrics(options.name);
    this.metrics = this.httpMetrics.registry;
    this.app = this.skeleton(!options.publicEdge);
  }

  /**
   * An express app with what every listener has: trace context, request ids and access log,
   * metrics, /health/*. `continueTrace`: whether an incoming trace context is continued.
   */
  private skeleton(continueTrace: boolean): Express {
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use(traceRequests(this.options.name, { continueTrace }));
    app.use(accessLog(app, this.options.logger, this.quiet));
    app.use(this.httpMetrics.middleware);
    const health = healthRouter(this.checks, this.options.config.READINESS_TIMEOUT_MS, this.state);
    // Only /health/* enters the health router: other requests skip its route matching.
    app.use((req, res, next) => {
      if (req.url.startsWith('/health/')) health(req, res, next);
      else next();
    });
    return app;
  }

  /**
   * The service-to-service API's own app (`/internal/v1/...`), served on its own listener
   * (INTERNAL_PORT, default PORT + 100), never on the public port: a NetworkPolicy can then admit
   * only the calling service to it, and the gateway has nothing to route there. It has the public
   * app's request ids, access log, metrics, error shape and /health/* (the callers' aggregate
   * readiness asks it), and continues the caller's trace. Created on first use; `listen()` opens
   * its listener only when there is one.
   */
  get internal(): Express {
    this.internalApp ??= this.skeleton(true);
    return this.internalApp;
  }

  /**
   * Routes answered on node:http ahead of the express app, for a hot path that must not pay for a
   * middleware stack per request (the gateway's forwarding table). Every request is offered to
   * `routes` first (after the shutdown drain has seen it); what it declines goes to express. A
   * raw route calls `observe` for its request id, access log line, metrics and trace span, and
   * sets any other headers itself.
   */
  setRawRoutes(routes: RawRoutes): this {
    this.rawRoutes = routes;
    return this;
  }

  /**
   * For a raw route: the request id (reused from a well-formed x-request-id, set on the response),
   * and, once the response finishes, one access log line (the express path's fields: req id,
   * method, url, status, responseTime) and one observation of the latency histogram under
   * `route` (a template, never the raw URL). No serialiser, no child logger per request.
   * `startedAt` (performance.now()) is when the request came in, for a route that observes only
   * once it knows it answers the request itself (e.g. after reading the body). A response already
   * closed before it was answered (the client went away meanwhile) gets its access log line at
   * once and no latency observation, as on the express path.
   */
  observe(
    req: IncomingMessage,
    res: ServerResponse,
    route: string,
    startedAt = performance.now(),
  ): ObservedRequest {
    const id = requestIdFor(req, res);
    req.id = id;
    const logger = this.logger;
    const sink = this.accessSink;
    const quiet = this.quiet.has(route);
    if (res.destroyed) {
      if (!quiet) logRequest(logger, req, res, id, startedAt, sink);
      return { id, traceContext: undefined };
    }
    const traceContext = traceRawRequest(this.options.name, req, res, route, id, {
      continueTrace: !this.options.publicEdge,
    });
    const metrics = this.httpMetrics;
    res.once('close', () => {
      metrics.observe(
        req.method ?? 'GET',
        route,
        res.statusCode,
        (performance.now() - startedAt) / 1000,
      );
      if (!quiet) logRequest(logger, req, res, id, startedAt, sink);
    });
    return { id, traceContext };
  }

  addReadinessCheck(check: ReadinessCheck): this {
    this.checks.push(check);
    return this;
  }

  /** Hooks run in reverse order of registration after the server stops taking requests. */
  onShutdown(hook: ShutdownHook): this {
    this.hooks.push(hook);
    return this;
  }

  async listen(): Promise<RunningService> {
    this.app.use(notFoundHandler);
    this.app.use(restErrorHandler(this.logger));
    const { HOST, PORT } = this.options.config;
    const app = this.app;
    const drain = this.drain;
    const raw = this.rawRoutes;
    const server = createServer((req, res) => {
      drain.track(req, res);
      if (raw?.(req, res)) return;
      app(req, res);
    });
    this.server = server;
    const port = await listenOn(withRequestTimeouts(server), PORT, HOST);
    const url = `http://${reachableHost(HOST)}:${port}`;
    const internalUrl = await this.listenInternal();
    const metricsUrl = await this.listenForMetrics();
    this.logger.info({ url, internalUrl, metricsUrl }, `${this.options.name} listening`);
    return { url, port, server, metricsUrl, internalUrl };
  }

  /** The internal listener (see `internal`), when the service has internal routes. */
  private async listenInternal(): Promise<string | undefined> {
    const app = this.internalApp;
    if (!app) return undefined;
    app.use(notFoundHandler);
    app.use(restErrorHandler(this.logger));
    const drain = this.internalDrain;
    const server = createServer((req, res) => {
      drain.track(req, res);
      app(req, res);
    });
    this.internalServer = server;
    const host = this.options.config.INTERNAL_HOST ?? this.options.config.HOST;
    const port = await listenOn(
      withRequestTimeouts(server),
      internalPortFor(this.options.config),
      host,
    );
    return `http://${reachableHost(host)}:${port}`;
  }

  /**
   * Prometheus metrics on their own listener (METRICS_PORT), never on the public port: a scrape
   * target inside the cluster, not something the gateway or the internet can reach.
   */
  private async listenForMetrics(): Promise<string> {
    const registry = this.metrics;
    const server = createServer((req, res) => {
      if (req.method === 'GET' && (req.url ?? '').split('?')[0] === '/metrics') {
        registry.metrics().then(
          (text) => {
            res.writeHead(200, { 'Content-Type': registry.contentType });
            res.end(text);
          },
          (err: unknown) => {
            this.logger.error({ err }, 'metrics could not be collected');
            res.writeHead(500).end();
          },
        );
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('metrics are served at /metrics\n');
    });
    this.metricsServer = server;
    const host = this.options.config.METRICS_HOST ?? this.options.config.HOST;
    const port = await listenOn(server, metricsPortFor(this.options.config), host);
    return `http://${reachableHost(host)}:${port}`;
  }

  /**
   * Graceful shutdown (ConnectionDrain, on the public and the internal listener alike): readiness
   * answers 503, no new connections, every request
   * in flight and every one still arriving on a kept-alive connection is answered (the latter
   * with `Connection: close`), idle connections are closed once the server is quiet; after
   * SHUTDOWN_TIMEOUT_MS what is left is cut. Then the metrics listener closes and the shutdown
   * hooks (the app's resources) run, newest first. Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  /** The longest close() should take: the drain's grace plus time for the shutdown hooks. */
  get shutdownDeadlineMs(): number {
    return this.options.config.SHUTDOWN_TIMEOUT_MS + EXIT_BACKSTOP_MS;
  }

  private async doClose(): Promise<void> {
    this.state.shuttingDown = true;
    const drainOptions = {
      graceMs: this.options.config.SHUTDOWN_TIMEOUT_MS,
      idleLingerMs: this.options.idleLingerMs ?? DEFAULT_IDLE_LINGER_MS,
    };
    const draining: Promise<unknown>[] = [];
    if (this.server) draining.push(this.drain.drain(this.server, drainOptions, this.logger));
    if (this.internalServer) {
      draining.push(this.internalDrain.drain(this.internalServer, drainOptions, this.logger));
    }
    await Promise.all(draining);
    // Every request has been answered and logged: the access lines kept in a batch go out now.
    flushAccessLog();
    const metricsServer = this.metricsServer;
    if (metricsServer?.listening) {
      await new Promise<void>((resolve) => {
        metricsServer.close(() => resolve());
        metricsServer.closeAllConnections();
      });
    }
    for (const hook of [...this.hooks].reverse()) {
      try {
        await hook();
      } catch (err) {
        this.logger.error({ err }, 'shutdown hook failed');
      }
    }
  }
}

/**
 * The timeouts of a request listener (public and internal): kept-alive connections outlive a load
 * balancer's 60 s idle timeout; a request must arrive whole within 30 s.
 */
function withRequestTimeouts(server: Server): Server {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  return server;
}

/** Starts `server` on host:port; resolves with the port it listens on. */
async function listenOn(server: Server, port: number, host: string): Promise<number> {
  server.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return (server.address() as AddressInfo).port;
}

function reachableHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

/**
 * Wires SIGTERM / SIGINT (and the loss of the parent's IPC channel, when a supervisor such as the
 * dev stack spawned this process) to a graceful close, then exits 0 (1 when closing failed).
 * Further signals during the drain are logged and ignored (a Ctrl-C reaches every process of the
 * terminal's group and the dev stack sends its own SIGTERM: the second must not end the drain);
 * SIGKILL ends the process at once. Should closing hang (a resource that never closes), the
 * process exits 1 after `service.shutdownDeadlineMs`.
 */
export function exitOnSignals(
  service: Pick<HttpService, 'close' | 'shutdownDeadlineMs'>,
  logger: Logger,
): void {
  let exiting = false;
  const stop = (reason: string) => {
    if (exiting) {
      logger.warn({ reason }, 'already shutting down: the drain goes on');
      return;
    }
    exiting = true;
    logger.info({ reason }, 'shutting down');
    setTimeout(() => {
      logger.error({ reason }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, service.shutdownDeadlineMs).unref();
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (process.send) process.once('disconnect', () => stop('parent gone'));
}
