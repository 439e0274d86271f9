import {
  createTestDatabase,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import { startHarness, type Harness } from '@itp/block-rpc/testing';
import { startTokenApp, type TokenTestApp } from '@itp/token-rpc/testing';

export interface RpcUpstreams {
  /** token-rpc: /token and /token/erc20. */
  token: TokenTestApp;
  /** block-rpc: /block. */
  block: Harness;
  /** Stops both and drops their databases. */
  close(): Promise<void>;
}

/**
 * Test helper of the API-document specs: a real token-rpc and block-rpc, each on a database of
 * its own, on the test harness' Redis and chain, trusting loopback proxies (X-Forwarded-Host /
 * -Proto from the test or the gateway shape their OpenRPC servers[].url).
 */
export async function startRpcUpstreams(
  name: string,
  env: Record<string, string> = {},
): Promise<RpcUpstreams> {
  const databases: TestDatabase[] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  const [tokenDb, blockDb] = databases as [TestDatabase, TestDatabase];
  const started: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    for (const app of started) await app.close();
    for (const db of databases) await db.drop();
  };
  try {
    const [token, block] = await Promise.all([
      startTokenApp({
        chainUrl: testChainUrl(),
        databaseUrl: tokenDb.url,
        redisPrefix: uniquePrefix(`${name}-token`),
        env: { TRUST_PROXY: 'loopback', ...env },
      }).then((app) => (started.push(app), app)),
      startHarness({
        chainUrl: testChainUrl(),
        databaseUrl: blockDb.url,
        redisUrl: testRedisUrl(),
        keyPrefix: uniquePrefix(`${name}-block`),
        env: { TRUST_PROXY: 'loopback', ...env },
      }).then((app) => (started.push(app), app)),
    ]);
    return { token, block, close };
  } catch (err) {
    await close();
    throw err;
  }
}
