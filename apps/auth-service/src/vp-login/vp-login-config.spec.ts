import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { resolveInternalToken } from '@itp/crypto';
import { loadConfig } from '@itp/service-kit';
import { authServiceConfigSchema } from '../config.js';

describe('VP login settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'auth-vp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('production (and test) needs DID_SERVICE_INTERNAL_URL and both internal tokens', () => {
    for (const appEnv of ['production', 'test']) {
      expect(() =>
        loadConfig(authServiceConfigSchema, { APP_ENV: appEnv, JWT_SIGNING_KEYS: '[]' }),
      ).toThrow(
        new RegExp(
          `DID_SERVICE_INTERNAL_URL: required when APP_ENV=${appEnv}[\\s\\S]*INTERNAL_TOKEN_AUTH_TO_DID: required[\\s\\S]*INTERNAL_TOKEN_DID_TO_AUTH: required`,
        ),
      );
    }
    const config = loadConfig(authServiceConfigSchema, { APP_ENV: 'development' });
    expect(config.VP_LOGIN_MAX_AGE_SECONDS).toBe(300);
  });

  it('development shares DATA_DIR/secrets/internal-token-auth-to-did (0600) with did-service', () => {
    const dev = { APP_ENV: 'development', DATA_DIR: dir };
    const token = resolveInternalToken(dev, 'INTERNAL_TOKEN_AUTH_TO_DID');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(resolveInternalToken(dev, 'INTERNAL_TOKEN_AUTH_TO_DID')).toBe(token);
    expect(statSync(join(dir, 'secrets', 'internal-token-auth-to-did')).mode & 0o777).toBe(0o600);
    const test = { APP_ENV: 'test', DATA_DIR: dir };
    expect(resolveInternalToken(test, 'INTERNAL_TOKEN_AUTH_TO_DID')).toBeUndefined();
    expect(
      resolveInternalToken(
        { ...test, INTERNAL_TOKEN_AUTH_TO_DID: 'x'.repeat(32) },
        'INTERNAL_TOKEN_AUTH_TO_DID',
      ),
    ).toBe('x'.repeat(32));
  });
});
