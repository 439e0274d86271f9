export {
  ConfigError,
  baseConfigShape,
  configSchemas,
  internalListenerConfigShape,
  internalPortFor,
  loadConfig,
  metricsPortFor,
  type BaseConfig,
  type Env,
} from './config.js';
export {
  ACCESS_LOG_BATCH_BYTES,
  ACCESS_LOG_FLUSH_MS,
  accessLoggerOf,
  createLogger,
  flushAccessLog,
  REDACT_PATHS,
  type Logger,
  type LoggerOptions,
} from './logger.js';
export { createHttpMetrics, type HttpMetrics } from './metrics.js';
export {
  errorBody,
  internalErrorMessage,
  notFoundHandler,
  restErrorHandler,
  type ErrorBody,
} from './error-handler.js';
export {
  runReadiness,
  serviceReadinessCheck,
  type ReadinessCheck,
  type ReadinessReport,
} from './health.js';
export { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';
export {
  HttpService,
  exitOnSignals,
  type ObservedRequest,
  type RawRoutes,
  type RunningService,
  type ServiceOptions,
  type ShutdownHook,
} from './http-service.js';
export { runMain } from './run-main.js';
export { defineApp, type BuildApp } from './define-app.js';
export { ResourceScope } from './resource-scope.js';
export { parseBody } from './parse-body.js';
export { bearerToken, type RequestWithHeaders } from './bearer-token.js';
export {
  InternalClient,
  requireInternalToken,
  type InternalClientOptions,
} from './internal-api.js';
export {
  acceptedInternalApiTokens,
  internalApiAcceptedTokensSetting,
  internalTokenSetting,
  retiredInternalApiTokenSetting,
} from './internal-api-tokens.js';
export { parseTrustProxy, trustProxySetting, type TrustProxy } from './trust-proxy.js';
export { clientGroup } from './client-group.js';
export {
  SpanKind,
  inSpan,
  injectTraceHeaders,
  traceLogFields,
  tracingEnabled,
  type SpanOptions,
} from './tracing/tracing.js';
export {
  startTracing,
  type StartTracingOptions,
  type Tracing,
  type TracingConfig,
} from './tracing/start-tracing.js';
export { requestTraceFields, traceRawRequest, traceRequests } from './tracing/trace-requests.js';
export { CLI_EXIT, reportCliError, UsageError } from './cli-errors.js';
export { MAX_JSON_DEPTH, JsonTooDeepError, jsonBody, jsonDepthExceeds } from './json-depth.js';
export { insecurePublicUrl, publicUrlSetting } from './public-url.js';
export { oauthErrorHandler, type OAuthRefusal } from './oauth-error-handler.js';
export { escapeHtml } from './escape-html.js';
export { pageCsp } from './page-csp.js';
export { qrDataUrl, rememberedQrDataUrl } from './qr-data-url.js';
