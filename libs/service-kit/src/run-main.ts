import type { z } from 'zod';
import { ConfigError, loadConfig, type BaseConfig, type Env } from './config.js';
import { exitOnSignals } from './http-service.js';
import type { BuildApp } from './define-app.js';
import { createLogger } from './logger.js';

/**
 * What every app's main.ts does, and all it does: `await runMain(buildApp)`. Validates the
 * environment once into the typed config (a bad config prints every problem and exits 1 before
 * anything starts), builds, listens, and shuts down cleanly on SIGTERM / SIGINT.
 */
export async function runMain<S extends z.ZodType<BaseConfig>>(
  buildApp: BuildApp<S>,
  // The one place the process environment is read (lint allows it here and in main.ts only).
  env: Env = process.env,
): Promise<void> {
  const name = buildApp.appName;
  let config: z.infer<S>;
  try {
    config = loadConfig(buildApp.configSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${name}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ name, level: config.LOG_LEVEL, pretty: config.LOG_PRETTY });
  // A bug that escapes every handler still ends the process (its state is unknown; the
  // orchestrator restarts it), but as a structured fatal line that names the error, not as
  // Node's bare stderr dump.
  const crash = (kind: string) => (err: unknown) => {
    logger.fatal({ err }, `${name}: ${kind}; exiting`);
    process.exit(1);
  };
  process.once('uncaughtException', crash('uncaught exception'));
  process.once('unhandledRejection', crash('unhandled promise rejection'));
  try {
    const service = await buildApp(config, logger);
    exitOnSignals(service, logger);
    await service.listen();
  } catch (err) {
    logger.fatal({ err }, `${name} failed to start`);
    process.exit(1);
  }
}
