import { describeMinimalEnvStart } from '@itp/testing';
import { buildApp } from './app.js';
import { startEchoUpstream, type EchoUpstream } from './testing/echo-upstream.js';

// The README's minimum: the four upstream URLs, nothing else (here: echo upstreams of the harness).
let upstreams: EchoUpstream[] = [];

describeMinimalEnvStart({
  buildApp,
  minimalEnv: async () => {
    upstreams = await Promise.all(
      ['auth', 'did', 'token', 'block'].map((name) => startEchoUpstream(name)),
    );
    const [auth, did, token, block] = upstreams.map((u) => u.url);
    return {
      AUTH_SERVICE_URL: auth,
      DID_SERVICE_URL: did,
      TOKEN_RPC_URL: token,
      BLOCK_RPC_URL: block,
    };
  },
  teardown: async () => {
    await Promise.all(upstreams.map((u) => u.close()));
  },
  defaults: {
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
  },
  metricsPort: 9080,
});
