import type { z } from 'zod';
import { ConfigError, loadConfig, type BaseConfig, type Env } from './config.js';
import { exitOnSignals, type Service } from './create-service.js';
import { createLogger, type Logger } from './logger.js';

export interface RunMainOptions<S extends z.ZodType<BaseConfig>> {
  name: string;
  schema: S;
  env: Env;
  /** The composition root: builds every part of the service from the typed config. */
  build: (config: z.infer<S>, logger: Logger) => Promise<Service>;
}

/**
 * What every app's main.ts does: validate the config once, build, listen, and shut down cleanly on
 * SIGTERM/SIGINT. A bad config prints every problem and exits 1 before anything starts.
 */
export async function runMain<S extends z.ZodType<BaseConfig>>(
  options: RunMainOptions<S>,
): Promise<void> {
  let config: z.infer<S>;
  try {
    config = loadConfig(options.schema, options.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${options.name}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ name: options.name, level: config.LOG_LEVEL });
  try {
    const service = await options.build(config, logger);
    exitOnSignals(service, logger);
    await service.listen();
  } catch (err) {
    logger.fatal({ err }, `${options.name} failed to start`);
    process.exit(1);
  }
}
