import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import type { Registry } from 'prom-client';
import { metricsPortFor, type BaseConfig } from './config.js';
import { notFoundHandler, restErrorHandler } from './error-handler.js';
import { healthRouter, type HealthState, type ReadinessCheck } from './health.js';
import type { Logger } from './logger.js';
import { createHttpMetrics } from './metrics.js';
import { requestIdFor } from './request-id.js';

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
  >;
  logger: Logger;
  /** Skip the access log for these paths (health probes, scrapes). */
  quietPaths?: string[];
}

export type ShutdownHook = () => Promise<unknown> | unknown;

export interface RunningService {
  url: string;
  port: number;
  server: Server;
  /** The separate Prometheus listener: `${metricsUrl}/metrics`. */
  metricsUrl: string;
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
  private metricsServer: Server | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: ServiceOptions) {
    this.logger = options.logger;
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    const quiet = new Set(options.quietPaths ?? ['/health/live', '/health/ready', '/metrics']);
    app.use(
      pinoHttp({
        logger: options.logger,
        genReqId: requestIdFor,
        autoLogging: { ignore: (req) => quiet.has((req.url ?? '').split('?')[0] ?? '') },
        customLogLevel: (_req, res, err) =>
          err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
        // Only method, url and id: bodies and headers can hold secrets.
        serializers: {
          req: (req: { id: unknown; method: string; url: string }) => ({
            id: req.id,
            method: req.method,
            url: req.url,
          }),
          res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        },
      }),
    );
    const { registry, middleware } = createHttpMetrics(options.name);
    this.metrics = registry;
    app.use(middleware);
    app.use(healthRouter(this.checks, options.config.READINESS_TIMEOUT_MS, this.state));
    this.app = app;
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
    const server = this.app.listen(PORT, HOST);
    this.server = server;
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    server.requestTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://${reachableHost(HOST)}:${port}`;
    const metricsUrl = await this.listenForMetrics();
    this.logger.info({ url, metricsUrl }, `${this.options.name} listening`);
    return { url, port, server, metricsUrl };
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
    server.listen(metricsPortFor(this.options.config), host);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    return `http://${reachableHost(host)}:${(server.address() as AddressInfo).port}`;
  }

  /** Stops taking requests, drains in-flight ones (bounded), then runs the shutdown hooks. */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    this.state.shuttingDown = true;
    const server = this.server;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(
        () => server.closeAllConnections(),
        this.options.config.SHUTDOWN_TIMEOUT_MS,
      );
      await closed;
      clearTimeout(timer);
    }
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

function reachableHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

/**
 * Wires SIGTERM / SIGINT (and the loss of the parent's IPC channel, when a supervisor such as the
 * dev stack spawned this process) to a graceful close, then exits.
 */
export function exitOnSignals(service: HttpService, logger: Logger): void {
  let exiting = false;
  const stop = (reason: string) => {
    if (exiting) return;
    exiting = true;
    logger.info({ reason }, 'shutting down');
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  if (process.send) process.once('disconnect', () => stop('parent gone'));
}
