import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { loadOrCreateDevSecret } from './dev-secret.js';

/** What secret resolution reads of a service's config. */
export interface SecretSource {
  APP_ENV: string;
  DATA_DIR: string;
}

/**
 * A deployment secret: the configured value; in development, when unset, the one kept in
 * `DATA_DIR/secrets/<file>` (generated once, mode 0600, linked into place so that dev services
 * starting together agree); outside development undefined when unset (the caller's config
 * refuses to start without it).
 */
export function resolveDeploymentSecret(
  config: SecretSource,
  value: string | undefined,
  file: string,
  generate: () => string,
): string | undefined {
  if (value) return value;
  if (config.APP_ENV !== 'development') return undefined;
  return loadOrCreateDevSecret(join(config.DATA_DIR, 'secrets', file), generate);
}

/** The internal API token every service shares: INTERNAL_API_TOKEN, or the dev stack's file. */
export function resolveInternalApiToken(
  config: SecretSource & { INTERNAL_API_TOKEN?: string },
): string | undefined {
  return resolveDeploymentSecret(config, config.INTERNAL_API_TOKEN, 'internal-api-token', () =>
    randomBytes(32).toString('base64url'),
  );
}
