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
} as const;

export const configSchemas = { port, bool };

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
};
