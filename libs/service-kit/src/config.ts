import { z } from 'zod';

/** Thrown once at start when the environment does not describe a valid configuration. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n  - ${issues.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const port = z.coerce.number().int().min(0).max(65535);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Settings every service shares. Each app extends this with its own keys. */
export const baseConfigShape = {
  APP_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: port,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: bool.default(false),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  READINESS_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
  /**
   * Port of the separate Prometheus listener (`GET /metrics`), never the public port. Unset:
   * PORT + 1000 (9080 for the gateway's 8080 …); 0 when PORT is 0 (any free port, for tests).
   */
  METRICS_PORT: port.optional(),
  /** Address the metrics listener binds to; unset: HOST. */
  METRICS_HOST: z.string().min(1).optional(),
  /** OTLP/HTTP collector base URL (spans to `<url>/v1/traces`); unset: tracing off (ADR 0012). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** Share of new traces recorded, 0–1 (default 1); a caller's sampling decision is kept. */
  OTEL_TRACES_SAMPLE_RATIO: z.coerce.number().min(0).max(1).optional(),
} as const;

export const configSchemas = { port, bool };

/**
 * The internal listener of a service that serves `/internal/v1/*` (auth-service, did-service,
 * token-rpc): a port of its own, so that a NetworkPolicy admits only the calling service to it.
 */
export const internalListenerConfigShape = {
  /** Port of the internal API listener. Unset: PORT + 100 (0 when PORT is 0: any free port). */
  INTERNAL_PORT: port.optional(),
  /** Address the internal listener binds to; unset: HOST. */
  INTERNAL_HOST: z.string().min(1).optional(),
} as const;

export type Env = Record<string, string | undefined>;

/**
 * Validates the environment once into a typed object. Empty strings count as unset, so that
 * `FOO=` in a compose file falls back to the default instead of failing a number parse.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: Env): z.infer<S> {
  const cleaned: Env = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') cleaned[key] = value;
  }
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  }
  return parsed.data;
}

export type BaseConfig = {
  APP_ENV: 'development' | 'production' | 'test';
  HOST: string;
  PORT: number;
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  LOG_PRETTY: boolean;
  BODY_LIMIT_BYTES: number;
  SHUTDOWN_TIMEOUT_MS: number;
  READINESS_TIMEOUT_MS: number;
  METRICS_PORT?: number;
  METRICS_HOST?: string;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_TRACES_SAMPLE_RATIO?: number;
};

/**
 * A second listener's port: the `name` setting when given, else PORT + `offset` (0 stays 0: any
 * free port); a ConfigError when PORT + offset is no port.
 */
function portBeside(port: number, given: number | undefined, offset: number, name: string): number {
  if (given !== undefined) return given;
  if (port === 0) return 0;
  if (port + offset > 65535) {
    throw new ConfigError([`${name}: required when PORT + ${offset} exceeds 65535 (PORT=${port})`]);
  }
  return port + offset;
}

/** The internal listener's port: INTERNAL_PORT, else PORT + 100 (0 stays 0: any free port). */
export function internalPortFor(
  config: Pick<BaseConfig, 'PORT'> & { INTERNAL_PORT?: number },
): number {
  return portBeside(config.PORT, config.INTERNAL_PORT, 100, 'INTERNAL_PORT');
}

/** The metrics listener's port: METRICS_PORT, else PORT + 1000 (0 stays 0: any free port). */
export function metricsPortFor(config: Pick<BaseConfig, 'PORT' | 'METRICS_PORT'>): number {
  return portBeside(config.PORT, config.METRICS_PORT, 1000, 'METRICS_PORT');
}
