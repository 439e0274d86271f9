import { createLogger, exitOnSignals } from '@itp/service-kit';
import { buildApp } from './app.js';
import { loadBlockRpcConfig, type BlockRpcConfig } from './config.js';

let config: BlockRpcConfig;
try {
  config = loadBlockRpcConfig(process.env);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

const logger = createLogger({ name: 'block-rpc', level: config.LOG_LEVEL });
try {
  const app = await buildApp(config, { logger });
  exitOnSignals(app.service, logger);
  await app.listen();
} catch (err) {
  logger.fatal({ err }, 'block-rpc failed to start');
  process.exit(1);
}
