import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { loadOrCreateDevSecret } from '@itp/crypto';

/**
 * The internal API token (service-to-service calls): INTERNAL_API_TOKEN when set; in development
 * otherwise DATA_DIR/secrets/internal-api-token, generated once (0600, written then linked into
 * place so that the dev services starting together agree). Undefined outside development without
 * it (the config refuses production without it; in tests VP login is then unconfigured).
 */
export function resolveInternalApiToken(config: {
  APP_ENV: string;
  DATA_DIR: string;
  INTERNAL_API_TOKEN?: string;
}): string | undefined {
  if (config.INTERNAL_API_TOKEN) return config.INTERNAL_API_TOKEN;
  if (config.APP_ENV !== 'development') return undefined;
  return loadOrCreateDevSecret(join(config.DATA_DIR, 'secrets', 'internal-api-token'), () =>
    randomBytes(32).toString('base64url'),
  );
}
