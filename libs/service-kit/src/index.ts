export {
  ConfigError,
  baseConfigShape,
  configSchemas,
  loadConfig,
  type BaseConfig,
  type Env,
} from './config.js';
export { createLogger, REDACT_PATHS, type Logger, type LoggerOptions } from './logger.js';
export { createHttpMetrics, type HttpMetrics } from './metrics.js';
export { errorBody, notFoundHandler, restErrorHandler, type ErrorBody } from './error-handler.js';
export { runReadiness, type ReadinessCheck, type ReadinessReport } from './health.js';
export { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';
export {
  Service,
  exitOnSignals,
  type RunningService,
  type ServiceOptions,
  type ShutdownHook,
} from './create-service.js';
export { runMain, type RunMainOptions } from './run-main.js';
export {
  InternalClient,
  requireInternalToken,
  type InternalClientOptions,
} from './internal-api.js';
