import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import type { Registry } from 'prom-client';
import type { BaseConfig } from './config.js';
import { notFoundHandler, restErrorHandler } from './error-handler.js';
import { healthRouter, type HealthState, type ReadinessCheck } from './health.js';
import type { Logger } from './logger.js';
import { createHttpMetrics } from './metrics.js';
import { requestIdFor } from './request-id.js';

export interface ServiceOptions {
  name: string;
  config: Pick<BaseConfig, 'HOST' | 'PORT' | 'SHUTDOWN_TIMEOUT_MS' | 'READINESS_TIMEOUT_MS'>;
  logger: Logger;
  /** Skip the access log for these paths (health probes, scrapes). */
  quietPaths?: string[];
}

export type ShutdownHook = () => Promise<unknown> | unknown;

export interface RunningService {
  url: string;
  port: number;
  server: Server;
}

/**
 * The HTTP skeleton every service shares: request ids, access logs, metrics, health endpoints,
 * the REST error shape, and graceful shutdown. Features mount their routers on `app`, register
 * readiness checks and shutdown hooks, then call `listen()`.
 */
export class Service {
  readonly app: Express;
  readonly metrics: Registry;
  readonly logger: Logger;
  private readonly checks: ReadinessCheck[] = [];
  private readonly hooks: ShutdownHook[] = [];
  private readonly state: HealthState = { shuttingDown: false };
  private server: Server | undefined;
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
    app.get('/metrics', async (_req, res) => {
      res.setHeader('Content-Type', registry.contentType);
      res.send(await registry.metrics());
    });
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
    const host = HOST === '0.0.0.0' || HOST === '::' ? '127.0.0.1' : HOST;
    const url = `http://${host}:${port}`;
    this.logger.info({ url }, `${this.options.name} listening`);
    return { url, port, server };
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
 * Wires SIGTERM / SIGINT (and the loss of the parent's IPC channel, when a supervisor such as the
 * dev stack spawned this process) to a graceful close, then exits.
 */
export function exitOnSignals(service: Service, logger: Logger): void {
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
