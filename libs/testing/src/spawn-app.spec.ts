import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REPO_ROOT, bundlesRoot } from '@itp/harness';
import { spawnApp, type SpawnedApp } from './index.js';
import {
  createTestDatabase,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from './test-infra.js';

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The bundles spawnApp({ run: 'bundle' }) of this process left (none once its apps stopped). */
const bundlesLeft = (): string[] =>
  readdirSync(bundlesRoot(REPO_ROOT)).filter((n) => n.startsWith(`entry-${process.pid}-`));

describe('spawnApp', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  const blockRpcEnv = (): Record<string, string> => ({
    APP_ENV: 'test',
    ETH_RPC_URL: testChainUrl(),
    DATABASE_URL: db.url,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: uniquePrefix('spawn'),
  });

  it('resolves once /health/ready answers 200, serves requests, and stop() ends the process', async () => {
    const app: SpawnedApp = await spawnApp('block-rpc', blockRpcEnv());
    try {
      expect(app.url).toBe(`http://127.0.0.1:${app.port}`);
      expect((await fetch(`${app.url}/health/ready`)).status).toBe(200);
      const res = await fetch(`${app.url}/block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBlockNumber', params: [] }),
      });
      const body = (await res.json()) as { result: { resultCode: string; resultData: unknown } };
      expect(body.result.resultCode).toBe('200');
      expect(Number.isInteger(body.result.resultData)).toBe(true);
      expect(isAlive(app.pid)).toBe(true);
    } finally {
      await app.stop();
    }
    expect(isAlive(app.pid)).toBe(false);
    await expect(fetch(`${app.url}/health/live`)).rejects.toThrow();
    await app.stop(); // a second stop is harmless
  }, 90_000);

  // The next two run the app from its bundle (run: 'bundle'): the same rules, and no tsx start.
  it("rejects with the app's stderr when it ends during start (invalid configuration), from its bundle too", async () => {
    const { ETH_RPC_URL: _omitted, ...env } = blockRpcEnv();
    await expect(spawnApp('block-rpc', env, { run: 'bundle' })).rejects.toThrow(
      /ended during start[\s\S]*ETH_RPC_URL/,
    );
    expect(bundlesLeft()).toEqual([]);
  }, 90_000);

  it("with waitFor 'live', resolves for an app whose upstreams are down (its /health/ready: 503)", async () => {
    const down = 'http://127.0.0.1:9';
    const gateway = await spawnApp(
      'gateway',
      {
        APP_ENV: 'test',
        AUTH_SERVICE_URL: down,
        DID_SERVICE_URL: down,
        TOKEN_RPC_URL: down,
        BLOCK_RPC_URL: down,
      },
      { waitFor: 'live', run: 'bundle' },
    );
    try {
      expect((await fetch(`${gateway.url}/health/live`)).status).toBe(200);
      expect((await fetch(`${gateway.url}/health/ready`)).status).toBe(503);
    } finally {
      await gateway.stop();
    }
    expect(bundlesLeft()).toEqual([]); // stop() removed the bundle
  }, 90_000);

  it('refuses a name that is not an app folder name', async () => {
    await expect(spawnApp('../tools/dev', {})).rejects.toThrow(/not an app name/);
  });
});
