import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { HDNodeWallet } from 'ethers';
import { DEV_CHAIN, deployDidRegistry } from '@itp/chain';
import {
  createTestDatabase,
  freePort,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import { startAuthService, type RunningAuthService } from '../testing/start-auth-service.js';

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
  internalApiToken: string;
  close(): Promise<void>;
}

interface Spawned {
  url: string;
  stop(): Promise<void>;
}

async function spawnApp(app: string, env: Record<string, string>, port?: number): Promise<Spawned> {
  const main = fileURLToPath(new URL(`../../../${app}/src/main.ts`, import.meta.url));
  const listenPort = port ?? (await freePort());
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      HOST: '127.0.0.1',
      PORT: String(listenPort),
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: Buffer[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const url = `http://127.0.0.1:${listenPort}`;
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) break;
    const live = await fetch(`${url}/health/live`).then(
      (r) => r.ok,
      () => false,
    );
    if (live) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${app} did not start: ${Buffer.concat(stderr).toString('utf8')}`);
}

/** The ERC-1056 registry on the test chain (dev account #9, as did-service's own tests). */
async function ensureRegistry(): Promise<string> {
  const deployer = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/9");
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      return await deployDidRegistry(testChainUrl(), deployer.privateKey);
    } catch (err) {
      lastError = err;
      await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
    }
  }
  throw lastError;
}

export async function startVpLoginStack(): Promise<VpLoginStack> {
  const internalApiToken = randomBytes(32).toString('base64url');
  const databases: TestDatabase[] = [];
  const started: Spawned[] = [];
  let auth: RunningAuthService | undefined;
  try {
    const [authDb, didDb, tokenDb] = await Promise.all([1, 2, 3].map(() => createTestDatabase()));
    databases.push(authDb!, didDb!, tokenDb!);
    const registry = await ensureRegistry();
    const didPort = await freePort();
    const didServiceUrl = `http://127.0.0.1:${didPort}`;
    auth = await startAuthService({
      DATABASE_URL: authDb!.url,
      DID_SERVICE_URL: didServiceUrl,
      INTERNAL_API_TOKEN: internalApiToken,
      LOGIN_POLL_MIN_INTERVAL_MS: '0',
    });
    const tokenRpc = await spawnApp('token-rpc', {
      APP_ENV: 'test',
      ETH_RPC_URL: testChainUrl(),
      DATABASE_URL: tokenDb!.url,
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: uniquePrefix('token'),
      WALLET_MASTER_KEY: `t1:${randomBytes(32).toString('base64')}`,
      INTERNAL_API_TOKEN: internalApiToken,
    });
    started.push(tokenRpc);
    const didService = await spawnApp(
      'did-service',
      {
        APP_ENV: 'test',
        ETH_RPC_URL: testChainUrl(),
        DID_REGISTRY_ADDRESS: registry,
        DATABASE_URL: didDb!.url,
        REDIS_URL: testRedisUrl(),
        REDIS_KEY_PREFIX: uniquePrefix('did'),
        TOKEN_RPC_URL: tokenRpc.url,
        AUTH_SERVICE_URL: auth.url,
        INTERNAL_API_TOKEN: internalApiToken,
        DID_KMS_SECRET_KEY: randomBytes(32).toString('hex'),
      },
      didPort,
    );
    started.push(didService);
    const gateway = await spawnApp('gateway', {
      APP_ENV: 'test',
      AUTH_SERVICE_URL: auth.url,
      DID_SERVICE_URL: didService.url,
      TOKEN_RPC_URL: tokenRpc.url,
      BLOCK_RPC_URL: 'http://127.0.0.1:9',
    });
    started.push(gateway);
    const running = auth;
    return {
      auth: running,
      gatewayUrl: gateway.url,
      tokenRpcUrl: tokenRpc.url,
      didServiceUrl: didService.url,
      internalApiToken,
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
