import type { z } from 'zod';
import type { BaseConfig } from './config.js';
import type { HttpService } from './http-service.js';
import type { Logger } from './logger.js';
import { ResourceScope } from './resource-scope.js';
import { startTracing } from './tracing/start-tracing.js';

/** An app's composition root as runMain and tests call it. */
export interface BuildApp<S extends z.ZodType<BaseConfig> = z.ZodType<BaseConfig>> {
  (config: z.infer<S>, logger: Logger): Promise<HttpService>;
  /** The service's name (logs, metrics). */
  readonly appName: string;
  /** The schema its configuration is validated with, once, at start. */
  readonly configSchema: S;
}

/**
 * Declares an app's composition root. `build` wires everything from the typed config and opens
 * its resources through `scope` (each registered for shutdown as it opens). A build that throws
 * closes what it opened; a service that shuts down closes them after its HTTP server drained.
 * Tracing starts first (when configured: OTEL_EXPORTER_OTLP_ENDPOINT) and is flushed last.
 */
export function defineApp<S extends z.ZodType<BaseConfig>>(
  appName: string,
  configSchema: S,
  build: (config: z.infer<S>, logger: Logger, scope: ResourceScope) => Promise<HttpService>,
): BuildApp<S> {
  const buildApp = async (config: z.infer<S>, logger: Logger): Promise<HttpService> => {
    const tracing = await startTracing({ serviceName: appName, config });
    const scope = new ResourceScope(logger);
    let service: HttpService;
    try {
      service = await build(config, logger, scope);
    } catch (err) {
      await scope.closeAll();
      await tracing.shutdown();
      throw err;
    }
    service.onShutdown(async () => {
      await scope.closeAll();
      await tracing.shutdown();
    });
    return service;
  };
  return Object.assign(buildApp, { appName, configSchema });
}
