import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, loadConfig } from '@itp/service-kit';
import { buildApp, buildAuthService } from './app.js';
import { authServiceConfigSchema } from './config.js';
import { basicAuth, newInternalApiToken, postJson } from './testing/start-auth-service.js';

const logger = createLogger({ name: 'auth-service', level: 'silent' });

describe('auth-service in development mode (SQLite and the in-process store in DATA_DIR)', () => {
  let dataDir: string;
  const devConfig = () =>
    loadConfig(authServiceConfigSchema, {
      APP_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
    });

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'auth-dev-'));
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('has the demo user and demo client, and keeps its signing key across a restart', async () => {
    const first = await buildAuthService(devConfig(), logger);
    const { url } = await first.service.listen();
    let token: string;
    try {
      const login = await postJson(`${url}/v2/auth/auth-user`, {
        id: 'demo',
        password: 'demo-password',
      });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({
        userId: 'demo',
        name: 'Demo User',
        email: 'demo@example.com',
        telNo: null,
      });
      token = (login.body as { token: string }).token;
      const byApp = await postJson(
        `${url}/v2/auth/auth-user-by-app`,
        { requestId: 'http://localhost:8080/login?', waitTime: 30 },
        { authorization: basicAuth('demo-site', 'demo-site-secret') },
      );
      expect(byApp.status).toBe(200);
      expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    } finally {
      await first.service.close();
    }

    const second = await buildAuthService(devConfig(), logger);
    const restarted = await second.service.listen();
    try {
      await expect(second.domain.ownTokens.verify(token)).resolves.toMatchObject({
        userId: 'demo',
      });
      const extended = await postJson(`${restarted.url}/v2/auth/auth-user`, {
        id: 'demo',
        password: 'demo-password',
        token,
      });
      expect(extended.status).toBe(200);
    } finally {
      await second.service.close();
    }
  });
});

describe('auth-service in production mode', () => {
  it.each(['production', 'test'])(
    'APP_ENV=%s refuses to start without JWT_SIGNING_KEYS (a configuration error)',
    (appEnv) => {
      expect(() =>
        loadConfig(authServiceConfigSchema, {
          APP_ENV: appEnv,
          PORT: '0',
          REDIS_URL: 'redis://127.0.0.1:1',
          DATABASE_URL: 'postgres://u@127.0.0.1:1/db',
          DID_SERVICE_INTERNAL_URL: 'http://127.0.0.1:9',
          INTERNAL_TOKEN_AUTH_TO_DID: newInternalApiToken(),
          INTERNAL_TOKEN_DID_TO_AUTH: newInternalApiToken(),
        }),
      ).toThrow(new RegExp(`JWT_SIGNING_KEYS: required when APP_ENV=${appEnv}`));
    },
  );

  it('refuses unusable signing keys before listening, without echoing them', async () => {
    const config = loadConfig(authServiceConfigSchema, {
      APP_ENV: 'development',
      PORT: '0',
      DATA_DIR: join(tmpdir(), 'unused'),
      DATABASE_URL: 'sqlite::memory:',
      JWT_SIGNING_KEYS: '[{"kty":"EC","crv":"P-256","d":"c2VjcmV0LWQ"}]',
    });
    const err = await buildApp(config, logger).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/JWT_SIGNING_KEYS: key #0/);
    expect((err as Error).message).not.toContain('c2VjcmV0LWQ');
  });
});
