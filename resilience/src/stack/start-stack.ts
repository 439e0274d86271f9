import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_CHAIN, freePort } from '@itp/dev-chain';
import { internalTokenEnv } from '@itp/crypto';
import { LocalChain, LocalPostgres, LocalRedis } from '@itp/harness';
import { AppProcess, REPO_ROOT } from './app-process.js';
import { makeSecrets, type StackSecrets } from './secrets.js';

/** Who the suite logs in as, and the relying party of the QR (web-site) login. */
export interface StackAccounts {
  users: Array<{ id: string; password: string; name: string }>;
  client: { id: string; secret: string; prefix: string };
}

export interface Stack {
  dir: string;
  redis: LocalRedis;
  postgres: LocalPostgres;
  chain: LocalChain;
  databaseUrl: string;
  apps: Record<AppName, AppProcess>;
  gatewayUrl: string;
  secrets: StackSecrets;
  accounts: StackAccounts;
  /** Every log file of the run (apps, Redis, PostgreSQL). */
  logFiles(): string[];
  close(): Promise<void>;
}

export const APP_NAMES = [
  'auth-service',
  'did-service',
  'token-rpc',
  'block-rpc',
  'gateway',
] as const;
export type AppName = (typeof APP_NAMES)[number];

/**
 * Settings of the stack the suite runs against, where it departs from the defaults (everything
 * else is as in production, APP_ENV=test):
 * - ETH_RPC_TIMEOUT_MS 3 s: a paused chain node is answered "503" after 3 s instead of 10 s.
 * - TX_RECONCILE_INTERVAL_MS 5 s / TX_RECONCILE_GRACE_MS 3 s: records left open by a fault are
 *   settled within seconds (the production 30 s / 10 s would too, within a minute).
 * - LOGIN_POLL_MIN_INTERVAL_MS 0: the QR race polls one request 10× at once (with the default the
 *   extra polls get 429 slow_down, which would not test the hand-out).
 * - TRUST_PROXY loopback on every process, gateway included: the suite's clients say who they are
 *   with X-Forwarded-For, so the fuzzers' failed logins and wallet calls hit their own per-address
 *   limits (which stay at their defaults) and never those of the load.
 */
const CHAIN_TIMEOUT_MS = '3000';

function runCli(args: string[], env: Record<string, string>, stdin: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/auth-service/src/cli.ts', ...args],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['pipe', 'ignore', 'pipe'],
      },
    );
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    child.stdin?.end(stdin);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`auth-service cli ${args[0]} ${args[1]}: ${err}`)),
    );
  });
}

export async function startStack(options: { log?: (line: string) => void } = {}): Promise<Stack> {
  const say = options.log ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'itp-resilience-'));
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    // RESILIENCE_KEEP_LOGS=1 keeps the services' logs (and data files) for a post-mortem.
    if (process.env.RESILIENCE_KEEP_LOGS) say(`logs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };
  try {
    say('starting private Redis, PostgreSQL and anvil');
    const [redis, postgres, chain, secrets] = await Promise.all([
      LocalRedis.start({ dir, persist: true }),
      LocalPostgres.start({ dir }),
      LocalChain.start({ stateFile: join(dir, 'chain.json'), deployRegistry: true }),
      makeSecrets(),
    ]);
    closers.push(
      () => redis.stop(),
      () => postgres.stop(),
      () => chain.stop(),
    );
    const databaseUrl = await postgres.createDatabase('itp');
    const names = APP_NAMES;
    const ports = await Promise.all(names.map(() => freePort()));
    const metrics = await Promise.all(names.map(() => freePort()));
    const internal = await Promise.all(names.map(() => freePort()));
    const url = (name: AppName) => `http://127.0.0.1:${ports[names.indexOf(name)]}`;
    const internalUrl = (name: AppName) => `http://127.0.0.1:${internal[names.indexOf(name)]}`;
    const common = (name: AppName): Record<string, string> => ({
      APP_ENV: 'test',
      LOG_LEVEL: 'info',
      METRICS_PORT: String(metrics[names.indexOf(name)]),
      INTERNAL_PORT: String(internal[names.indexOf(name)]),
      TRUST_PROXY: 'loopback',
      // Only the internal tokens of the calls it makes and answers, as in production.
      ...internalTokenEnv(name, secrets.internalTokens),
    });
    const stores = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url };
    const chainEnv = {
      ETH_RPC_URL: chain.url,
      CHAIN_ID: String(DEV_CHAIN.chainId),
      ETH_RPC_TIMEOUT_MS: CHAIN_TIMEOUT_MS,
    };
    const env: Record<AppName, Record<string, string>> = {
      'auth-service': {
        ...stores,
        JWT_SIGNING_KEYS: secrets.jwtSigningKeys,
        DID_SERVICE_INTERNAL_URL: internalUrl('did-service'),
        LOGIN_POLL_MIN_INTERVAL_MS: '0',
      },
      'did-service': {
        ...stores,
        ...chainEnv,
        DID_REGISTRY_ADDRESS: chain.didRegistryAddress,
        TOKEN_RPC_INTERNAL_URL: internalUrl('token-rpc'),
        AUTH_SERVICE_URL: url('auth-service'),
        AUTH_SERVICE_INTERNAL_URL: internalUrl('auth-service'),
        DID_KMS_SECRET_KEY: secrets.didKmsSecretKey,
        PUBLIC_URL: url('gateway'),
      },
      'token-rpc': {
        ...stores,
        ...chainEnv,
        WALLET_MASTER_KEY: secrets.walletMasterKey,
        TX_RECONCILE_INTERVAL_MS: '5000',
        TX_RECONCILE_GRACE_MS: '3000',
      },
      'block-rpc': { ...stores, ...chainEnv },
      gateway: {
        AUTH_SERVICE_URL: url('auth-service'),
        DID_SERVICE_URL: url('did-service'),
        TOKEN_RPC_URL: url('token-rpc'),
        BLOCK_RPC_URL: url('block-rpc'),
      },
    };
    const apps = Object.fromEntries(
      names.map((name, i) => [
        name,
        new AppProcess(name, ports[i] as number, { ...common(name), ...env[name] }, dir),
      ]),
    ) as Record<AppName, AppProcess>;
    for (const app of Object.values(apps)) closers.push(() => app.close());
    say('starting auth-service, did-service, token-rpc, block-rpc and the gateway');
    // Migrations of the services sharing one database run one after the other (auth and
    // block first, then token-rpc, whose wallet did-service needs at start).
    apps['auth-service'].start();
    apps['block-rpc'].start();
    apps['token-rpc'].start();
    await Promise.all([
      apps['auth-service'].waitHealthy('/health/live'),
      apps['token-rpc'].waitHealthy('/health/live'),
    ]);
    apps['did-service'].start();
    apps.gateway.start();
    const accounts: StackAccounts = {
      users: ['res-load', 'res-race', 'res-fault'].map((id) => ({
        id,
        password: `pw-${id}-${Math.random().toString(36).slice(2)}-Aa1`,
        name: `Resilience ${id}`,
      })),
      client: {
        id: 'res-shop',
        secret: `shop-${Math.random().toString(36).slice(2)}-secret-Aa1`,
        prefix: 'http://shop.example/',
      },
    };
    const cliEnv = { APP_ENV: 'test', DATABASE_URL: databaseUrl };
    await Promise.all([
      ...accounts.users.map((u) =>
        runCli(['users', 'add', u.id, '--name', u.name, '--password-stdin'], cliEnv, u.password),
      ),
      runCli(
        [
          'clients',
          'add',
          accounts.client.id,
          '--prefix',
          accounts.client.prefix,
          '--secret-stdin',
        ],
        cliEnv,
        accounts.client.secret,
      ),
    ]);
    await Promise.all(Object.values(apps).map((app) => app.waitHealthy('/health/ready')));
    say('stack ready');
    return {
      dir,
      redis,
      postgres,
      chain,
      databaseUrl,
      apps,
      gatewayUrl: apps.gateway.url,
      secrets,
      accounts,
      logFiles: () => [
        ...Object.values(apps).map((a) => a.logFile),
        redis.logFile,
        postgres.logFile,
      ],
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
