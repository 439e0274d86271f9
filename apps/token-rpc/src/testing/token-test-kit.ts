/**
 * Test helpers for token-rpc's integration tests (never imported by the service): build the app
 * with app.ts against the real Redis, PostgreSQL and an anvil chain, and talk JSON-RPC over HTTP.
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { startAnvil, type RunningAnvil } from '@itp/dev-chain';
import { loadConfig } from '@itp/service-kit';
import { freePort, testRedisUrl, waitFor } from '@itp/testing';
import { closedIfAbandoned } from '@itp/testing/abandoned-starts';
import { buildApp } from '../app.js';
import { tokenRpcConfigSchema } from '../config.js';

/**
 * Test-only secrets, random per test file: APP_ENV=test is production as far as secrets go, and
 * production refuses weak ones.
 */
export const TEST_MASTER_KEY = `test1:${randomBytes(32).toString('base64')}`;
export const TEST_INTERNAL_TOKEN = randomBytes(32).toString('base64url');

/**
 * The test apps' per-client rate limits: high, because every test talks from 127.0.0.1 and some
 * create many addresses. app.rate-limits.spec.ts runs with the real defaults.
 */
export const TEST_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_WALLET_PER_MINUTE: '100000',
  RATE_LIMIT_TEMP_KEY_PER_MINUTE: '100000',
  RATE_LIMIT_SIGN_DATA_PER_MINUTE: '100000',
  RATE_LIMIT_READ_PER_MINUTE: '100000',
};

export interface TokenTestApp {
  url: string;
  /** The internal wallet API's listener (did-service's calls). */
  internalUrl: string;
  close(): Promise<void>;
}

export interface StartTokenAppOptions {
  chainUrl: string;
  databaseUrl: string;
  redisPrefix: string;
  appEnv?: 'test' | 'development' | 'production';
  dataDir?: string;
  /** Extra or overriding environment variables. */
  env?: Record<string, string>;
  logger?: Logger;
}

export function startTokenApp(options: StartTokenAppOptions): Promise<TokenTestApp> {
  // Closed by the jest setup when it finishes after its beforeAll timed out (tools/jest).
  return closedIfAbandoned(startTokenAppNow(options));
}

async function startTokenAppNow(options: StartTokenAppOptions): Promise<TokenTestApp> {
  const config = loadConfig(tokenRpcConfigSchema, {
    APP_ENV: options.appEnv ?? 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    ETH_RPC_URL: options.chainUrl,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: options.redisPrefix,
    DATA_DIR: options.dataDir ?? '/nonexistent-token-rpc-test-dir',
    WALLET_MASTER_KEY: options.appEnv === 'development' ? undefined : TEST_MASTER_KEY,
    INTERNAL_TOKEN_DID_TO_TOKEN_RPC:
      options.appEnv === 'development' ? undefined : TEST_INTERNAL_TOKEN,
    ...TEST_RATE_LIMITS,
    ...options.env,
  });
  const service = await buildApp(config, options.logger ?? pino({ level: 'silent' }));
  const running = await service.listen();
  return {
    url: running.url,
    internalUrl: running.internalUrl!,
    close: () => service.close(),
  };
}

/**
 * A private anvil for one test file on a free port: chain id 31337, auto-mining, its ten
 * well-known accounts funded (10 000 ETH each; #0 is what dev mode funds new addresses from).
 */
export async function startFundedTestChain(): Promise<RunningAnvil> {
  return startAnvil({ port: await freePort() });
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

let nextId = 1;

/** One JSON-RPC call; resolves with the whole answer body. */
export async function rpc(
  baseUrl: string,
  path: '/token' | '/token/erc20',
  method: string,
  params?: unknown,
): Promise<Json> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status} for ${method}`);
  return res.json();
}

/** resultData of a successful call; fails the test with the answer otherwise. */
export async function ok(
  baseUrl: string,
  path: '/token' | '/token/erc20',
  method: string,
  params?: unknown,
): Promise<Json> {
  const answer = await rpc(baseUrl, path, method, params);
  if (answer.result?.resultCode !== '200') {
    throw new Error(`${method} failed: ${JSON.stringify(answer)}`);
  }
  return answer.result.resultData;
}

export interface TestWallet {
  address: string;
  mnemonic: string;
  secretKey: string;
}

export function createAddress(baseUrl: string): Promise<TestWallet> {
  return ok(baseUrl, '/token', 'createAddress', {});
}

export interface Credentials {
  tempKey: string;
  hashKey: string;
  signature: string;
}

/**
 * The client side of docs/api.md §4: net_getTempKey, hashKey, the signing string (built by
 * `fields` from tempKey and hashKey), signData.
 */
export async function authorize(
  baseUrl: string,
  wallet: { address: string; secretKey: string },
  keyType: 'transfer' | 'createToken' | 'erc20',
  fields: (tempKey: string, hashKey: string) => Array<string | number>,
): Promise<Credentials> {
  const { tempKey } = await ok(baseUrl, '/token', 'net_getTempKey', {
    address: wallet.address,
    keyType,
  });
  const hashKey = sha256(`${tempKey}|${wallet.secretKey}`);
  const hash = sha256(fields(tempKey, hashKey).map(String).join('|'));
  const signature = await ok(baseUrl, '/token', 'signData', {
    from: wallet.address,
    hash,
    tempKey,
    hashKey,
  });
  return { tempKey, hashKey, signature };
}

/** The params of a native transfer, authorised. */
export async function transferParams(
  baseUrl: string,
  wallet: TestWallet,
  to: string,
  amount: string,
): Promise<Record<string, string>> {
  const c = await authorize(baseUrl, wallet, 'transfer', (t, h) => [
    wallet.address,
    to,
    amount,
    t,
    h,
  ]);
  return { from: wallet.address, to, amount, ...c };
}

/** A raw call to the chain node (anvil cheat codes included). */
export async function chainCall(
  chainUrl: string,
  method: string,
  params: unknown[] = [],
): Promise<Json> {
  const res = await fetch(chainUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export async function setBalance(chainUrl: string, address: string, wei: bigint): Promise<void> {
  await chainCall(chainUrl, 'anvil_setBalance', [address, `0x${wei.toString(16)}`]);
}

/** Polls for the receipt of a transaction (anvil mines at once; this allows for a slow CI). */
export async function receiptOf(chainUrl: string, hash: string): Promise<Json> {
  return waitFor(() => chainCall(chainUrl, 'eth_getTransactionReceipt', [hash]), {
    what: `the receipt of transaction ${hash}`,
    timeoutMs: 10_000,
    intervalMs: 50,
  });
}

export const ONE_ETH = 10n ** 18n;

/** Runs SQL statements on a test database (triggers that make a write fail, direct reads). */
export async function runSql(databaseUrl: string, text: string): Promise<Json[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Makes PostgreSQL refuse one kind of write on a token-rpc table, the way a database that went
 * away at that moment would: a trigger raising an exception. `condition` is a PL/pgSQL boolean
 * over OLD / NEW. Returns what removes it again.
 */
export async function failWrites(
  databaseUrl: string,
  table: 'token_transactions' | 'wallet_keys',
  event: 'INSERT' | 'UPDATE',
  condition = 'true',
): Promise<() => Promise<void>> {
  const name = `test_fail_${event.toLowerCase()}_${table}`;
  await runSql(
    databaseUrl,
    `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger AS $$
     BEGIN
       IF ${condition} THEN RAISE EXCEPTION 'test: % on ${table} refused', TG_OP; END IF;
       RETURN NEW;
     END $$ LANGUAGE plpgsql;
     CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}();`,
  );
  return async () => {
    await runSql(databaseUrl, `DROP TRIGGER IF EXISTS ${name} ON ${table}`);
  };
}

/**
 * Polls getTransactionStatus until `done` holds for its resultData (or fails the test; the
 * timeout error's cause names the last status seen).
 */
export async function waitForTransactionStatus(
  baseUrl: string,
  transactionId: string,
  done: (status: Json) => boolean,
  timeoutMs = 15_000,
): Promise<Json> {
  return waitFor(
    async () => {
      const status = await ok(baseUrl, '/token', 'getTransactionStatus', { transactionId });
      if (!done(status)) {
        throw new Error(`transaction ${transactionId} still ${JSON.stringify(status)}`);
      }
      return status;
    },
    {
      what: `transaction ${transactionId} to reach the awaited status`,
      timeoutMs,
      intervalMs: 100,
    },
  );
}
