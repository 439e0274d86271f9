import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createLogger,
  loadConfig,
  metricsPortFor,
  type Env,
  type RunningService,
} from '@itp/service-kit';
import { buildApp } from './app.js';
import { startEchoUpstream, type EchoUpstream } from './testing/echo-upstream.js';

// The README's minimum: the four upstream URLs, nothing else (here: echo upstreams of the harness).
let upstreams: EchoUpstream[];
let minimalEnv: Env;

beforeAll(async () => {
  upstreams = await Promise.all(
    ['auth', 'did', 'token', 'block'].map((name) => startEchoUpstream(name)),
  );
  const [auth, did, token, block] = upstreams.map((u) => u.url);
  minimalEnv = {
    AUTH_SERVICE_URL: auth,
    DID_SERVICE_URL: did,
    TOKEN_RPC_URL: token,
    BLOCK_RPC_URL: block,
  };
});

afterAll(async () => {
  await Promise.all(upstreams.map((u) => u.close()));
});

describe('gateway with only the documented minimum environment', () => {
  it('loads the documented defaults', () => {
    const config = loadConfig(buildApp.configSchema, minimalEnv);
    expect(config).toMatchObject({
      APP_ENV: 'production',
      HOST: '0.0.0.0',
      PORT: 8080,
      LOG_LEVEL: 'info',
      BODY_LIMIT_BYTES: 1024 * 1024,
      UPSTREAM_TIMEOUT_MS: 30_000,
      UPSTREAM_MAX_SOCKETS: 128,
      CORS_ORIGINS: [],
      TRUST_PROXY: false,
      HSTS_MAX_AGE_SECONDS: 0,
      READINESS_TIMEOUT_MS: 2_000,
      SHUTDOWN_TIMEOUT_MS: 10_000,
    });
    expect(metricsPortFor(config)).toBe(9080);
  });

  describe('started', () => {
    let running: RunningService;
    let close: () => Promise<void>;

    beforeAll(async () => {
      const config = loadConfig(buildApp.configSchema, {
        ...minimalEnv,
        PORT: '0',
        METRICS_PORT: '0',
      });
      const service = await buildApp(config, createLogger({ name: 'gateway', level: 'silent' }));
      close = () => service.close();
      running = await service.listen();
    });

    afterAll(async () => {
      await close?.();
    });

    it('answers /health/ready with 200', async () => {
      const res = await fetch(`${running.url}/health/ready`);
      expect(res.status).toBe(200);
    });

    it('serves metrics on its own listener', async () => {
      expect(running.metricsUrl).not.toBe(running.url);
      const res = await fetch(`${running.metricsUrl}/metrics`);
      expect(res.status).toBe(200);
    });
  });
});
