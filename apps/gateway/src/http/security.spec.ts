import { afterEach, describe, expect, it } from '@jest/globals';
import type { Env } from '@itp/service-kit';
import { freePort } from '@itp/testing';
import { startGateway, type RunningGateway } from '../testing/start-gateway.js';

// Upstreams are never reached here: preflights and 404s are answered by the gateway itself.
let gateway: RunningGateway | undefined;

async function start(env: Env): Promise<RunningGateway> {
  const down = `http://127.0.0.1:${await freePort()}`;
  gateway = await startGateway({
    AUTH_SERVICE_URL: down,
    DID_SERVICE_URL: down,
    TOKEN_RPC_URL: down,
    BLOCK_RPC_URL: down,
    ...env,
  });
  return gateway;
}

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

function preflight(url: string) {
  return fetch(`${url}/v2/auth/auth-user`, {
    method: 'OPTIONS',
    headers: { origin: 'https://any.example', 'access-control-request-method': 'POST' },
  });
}

describe('CORS defaults', () => {
  it('development allows any origin', async () => {
    const { url } = await start({ APP_ENV: 'development' });
    const response = await preflight(url);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('vary')).toMatch(/origin/i);
  });

  it('production allows none, but still answers the preflight itself', async () => {
    const { url } = await start({ APP_ENV: 'production' });
    const response = await preflight(url);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/origin/i);
  });
});

describe('HSTS', () => {
  it('is sent only when configured', async () => {
    const { url } = await start({ HSTS_MAX_AGE_SECONDS: '31536000' });
    const response = await fetch(`${url}/nowhere`);
    expect(response.status).toBe(404);
    expect(response.headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });
});
