import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { resolveInternalApiToken } from '@itp/crypto';
import { loadConfig } from '@itp/service-kit';
import { configSchema } from '../config.js';

describe('VP login settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'auth-vp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('production (and test) needs DID_SERVICE_URL and INTERNAL_API_TOKEN', () => {
    for (const appEnv of ['production', 'test']) {
      expect(() => loadConfig(configSchema, { APP_ENV: appEnv, JWT_SIGNING_KEYS: '[]' })).toThrow(
        new RegExp(
          `DID_SERVICE_URL: required when APP_ENV=${appEnv}[\\s\\S]*INTERNAL_API_TOKEN: required`,
        ),
      );
    }
    const config = loadConfig(configSchema, { APP_ENV: 'development' });
    expect(config.VP_LOGIN_MAX_AGE_SECONDS).toBe(300);
  });

  it('development shares DATA_DIR/secrets/internal-api-token (0600) with the other services', () => {
    const token = resolveInternalApiToken({ APP_ENV: 'development', DATA_DIR: dir });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(resolveInternalApiToken({ APP_ENV: 'development', DATA_DIR: dir })).toBe(token);
    expect(statSync(join(dir, 'secrets', 'internal-api-token')).mode & 0o777).toBe(0o600);
    expect(resolveInternalApiToken({ APP_ENV: 'test', DATA_DIR: dir })).toBeUndefined();
    expect(
      resolveInternalApiToken({
        APP_ENV: 'test',
        DATA_DIR: dir,
        INTERNAL_API_TOKEN: 'x'.repeat(32),
      }),
    ).toBe('x'.repeat(32));
  });
});
