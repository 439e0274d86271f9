import { randomBytes } from 'node:crypto';
import { HDNodeWallet } from 'ethers';
import { internalTokenEnv, newInternalTokens } from '@itp/crypto';
import { DEV_CHAIN, deployDidRegistry } from '@itp/dev-chain';
import {
  createTestDatabase,
  freePort,
  spawnApp,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  waitFor,
  type SpawnedApp,
  type TestDatabase,
} from '@itp/testing';
import { closedIfAbandoned } from '@itp/testing/abandoned-starts';
import { startAuthService, type RunningAuthService } from './start-auth-service.js';

/**
 * Test helper (never imported by the service): the VP login stack of the seed flow — auth-service
 * built with app.ts, plus token-rpc, did-service and the gateway as their own processes (apps
 * never import apps), on the real Redis, PostgreSQL and dev chain of the jest setup.
 */
export interface VpLoginStack {
  auth: RunningAuthService;
  gatewayUrl: string;
  tokenRpcUrl: string;
  didServiceUrl: string;
  close(): Promise<void>;
}

/** The ERC-1056 registry on the test chain (dev account #9, as did-service's own tests). */
async function ensureRegistry(): Promise<string> {
  const deployer = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/9");
  return waitFor(() => deployDidRegistry(testChainUrl(), deployer.privateKey), {
    what: 'the DID registry to be deployed on the test chain (dev account #9)',
    timeoutMs: 10_000,
    intervalMs: 200,
  });
}

export function startVpLoginStack(): Promise<VpLoginStack> {
  // Closed by the jest setup when it finishes after its beforeAll timed out (tools/jest).
  return closedIfAbandoned(startVpLoginStackNow());
}

async function startVpLoginStackNow(): Promise<VpLoginStack> {
  // One token per pair of services, each service holding only its own, as in production.
  const tokens = newInternalTokens();
  const databases: TestDatabase[] = [];
  const started: SpawnedApp[] = [];
  let auth: RunningAuthService | undefined;
  try {
    const [authDb, didDb, tokenDb] = await Promise.all([1, 2, 3].map(() => createTestDatabase()));
    databases.push(authDb!, didDb!, tokenDb!);
    const registry = await ensureRegistry();
    const [didInternalPort, gatewayPort, tokenPort, tokenInternalPort, didPort] = await Promise.all(
      [1, 2, 3, 4, 5].map(() => freePort()),
    );
    auth = await startAuthService({
      DATABASE_URL: authDb!.url,
      DID_SERVICE_INTERNAL_URL: `http://127.0.0.1:${didInternalPort}`,
      ...internalTokenEnv('auth-service', tokens),
      LOGIN_POLL_MIN_INTERVAL_MS: '0',
    });
    const tokenRpcUrl = `http://127.0.0.1:${tokenPort}`;
    const didServiceUrl = `http://127.0.0.1:${didPort}`;
    // The three processes start at once, from their bundles (each waits only for its own
    // /health/live: none needs another to be up to start).
    const spawned = await Promise.allSettled([
      spawnApp(
        'token-rpc',
        {
          APP_ENV: 'test',
          ETH_RPC_URL: testChainUrl(),
          DATABASE_URL: tokenDb!.url,
          REDIS_URL: testRedisUrl(),
          REDIS_KEY_PREFIX: uniquePrefix('token'),
          WALLET_MASTER_KEY: `t1:${randomBytes(32).toString('base64')}`,
          INTERNAL_PORT: String(tokenInternalPort),
          ...internalTokenEnv('token-rpc', tokens),
        },
        { waitFor: 'live', port: tokenPort, run: 'bundle' },
      ),
      spawnApp(
        'did-service',
        {
          APP_ENV: 'test',
          ETH_RPC_URL: testChainUrl(),
          DID_REGISTRY_ADDRESS: registry,
          DATABASE_URL: didDb!.url,
          REDIS_URL: testRedisUrl(),
          REDIS_KEY_PREFIX: uniquePrefix('did'),
          TOKEN_RPC_INTERNAL_URL: `http://127.0.0.1:${tokenInternalPort}`,
          AUTH_SERVICE_URL: auth.url,
          AUTH_SERVICE_INTERNAL_URL: auth.internalUrl,
          INTERNAL_PORT: String(didInternalPort),
          // Where clients reach the API: the status lists' URLs of the credentials it issues.
          PUBLIC_URL: `http://localhost:${gatewayPort}`,
          ...internalTokenEnv('did-service', tokens),
          DID_KMS_SECRET_KEY: randomBytes(32).toString('hex'),
        },
        { waitFor: 'live', port: didPort, run: 'bundle' },
      ),
      spawnApp(
        'gateway',
        {
          APP_ENV: 'test',
          AUTH_SERVICE_URL: auth.url,
          DID_SERVICE_URL: didServiceUrl,
          TOKEN_RPC_URL: tokenRpcUrl,
          BLOCK_RPC_URL: 'http://127.0.0.1:9',
        },
        { waitFor: 'live', port: gatewayPort, run: 'bundle' },
      ),
    ]);
    for (const result of spawned) if (result.status === 'fulfilled') started.push(result.value);
    for (const result of spawned) if (result.status === 'rejected') throw result.reason;
    const gateway = started.find((s) => s.name === 'gateway')!;
    const running = auth;
    return {
      auth: running,
      gatewayUrl: gateway.url,
      tokenRpcUrl,
      didServiceUrl,
      close: async () => {
        await Promise.all(started.map((s) => s.stop()));
        await running.close();
        await Promise.all(databases.map((d) => d.drop()));
      },
    };
  } catch (err) {
    await Promise.all(started.map((s) => s.stop()));
    await auth?.close();
    await Promise.all(databases.map((d) => d.drop()));
    throw err;
  }
}
