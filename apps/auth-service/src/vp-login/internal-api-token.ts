import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
  const file = join(config.DATA_DIR, 'secrets', 'internal-api-token');
  if (!existsSync(file)) {
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    try {
      linkSync(temporary, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(temporary);
    }
  }
  return readFileSync(file, 'utf8').trim();
}
