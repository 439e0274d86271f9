import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LocalChain,
  LocalPostgres,
  LocalRedis,
  REPO_ROOT,
  bundleEntry,
  runProcess,
  startStack as startAppStack,
  type AppProcess,
  type EntryBundle,
} from '@itp/harness';
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
  /** auth-service's operator CLI against the stack's database (`args`, a secret on stdin). */
  operator(args: string[], stdin?: string): Promise<void>;
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
 * The secrets are the run's own (secrets.ts), so that the secret scan knows what to look for.
 */
function stackEnv(secrets: StackSecrets): Partial<Record<AppName, Record<string, string>>> {
  const chain = { ETH_RPC_TIMEOUT_MS: '3000' };
  return {
    'auth-service': { JWT_SIGNING_KEYS: secrets.jwtSigningKeys, LOGIN_POLL_MIN_INTERVAL_MS: '0' },
    'did-service': { ...chain, DID_KMS_SECRET_KEY: secrets.didKmsSecretKey },
    'token-rpc': {
      ...chain,
      WALLET_MASTER_KEY: secrets.walletMasterKey,
      TX_RECONCILE_INTERVAL_MS: '5000',
      TX_RECONCILE_GRACE_MS: '3000',
    },
    'block-rpc': chain,
    gateway: { TRUST_PROXY: 'loopback' },
  };
}

/**
 * auth-service's operator CLI (`apps/auth-service/src/cli.ts`) from its esbuild bundle (as the
 * image's `dist/cli.js` runs it): the suite runs it four times, and four tsx processes each
 * compiling the CLI's imports again took ~10 s of the stack's start on a busy 2-core machine.
 */
async function runCli(
  cli: EntryBundle,
  args: string[],
  env: Record<string, string>,
  stdin: string,
): Promise<void> {
  const run = await runProcess(process.execPath, [cli.file, ...args], {
    label: `auth-service cli ${args[0] ?? ''} ${args[1] ?? ''}`,
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdin,
  });
  if (run.code !== 0) throw new Error(`auth-service cli ${args[0]} ${args[1]}: ${run.stderr}`);
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
    const cliBundle = bundleEntry(REPO_ROOT, join(REPO_ROOT, 'apps/auth-service/src/cli.ts'));
    cliBundle.catch(() => undefined); // awaited below
    closers.push(async () => (await cliBundle).remove());
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
    const accounts: StackAccounts = {
      users: ['res-load', 'res-race', 'res-fault', 'res-account'].map((id) => ({
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
    // The accounts are added while the apps start (the CLI applies auth-service's migrations
    // itself; concurrent migrations wait for each other's lock).
    const cliEnv = { APP_ENV: 'test', DATABASE_URL: databaseUrl };
    const addAccounts = async (): Promise<void> => {
      const cli = await cliBundle;
      await Promise.all([
        ...accounts.users.map((u) =>
          runCli(
            cli,
            ['users', 'add', u.id, '--name', u.name, '--password-stdin'],
            cliEnv,
            u.password,
          ),
        ),
        runCli(
          cli,
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
      say('users and client added (auth-service CLI)');
    };
    say('starting auth-service, did-service, token-rpc, block-rpc and the gateway');
    const [started, added] = await Promise.allSettled([
      startAppStack({
        infra: {
          redisUrl: redis.url,
          databaseUrl,
          chainUrl: chain.url,
          didRegistryAddress: chain.didRegistryAddress,
        },
        appEnv: 'test',
        env: stackEnv(secrets),
        internalTokens: secrets.internalTokens,
        // The Redis is the stack's own: the apps' production key prefixes (the checks read them).
        keyPrefix: '',
        logDir: dir,
      }),
      addAccounts(),
    ]);
    if (started.status === 'fulfilled') closers.push(() => started.value.stop());
    if (started.status === 'rejected') throw started.reason;
    if (added.status === 'rejected') throw added.reason;
    const stack = started.value;
    const apps = Object.fromEntries(
      APP_NAMES.map((name) => [
        name,
        name === 'gateway' ? stack.gateway : stack.replicas[name]![0]!.process,
      ]),
    ) as Record<AppName, AppProcess>;
    say('stack ready');
    return {
      dir,
      redis,
      postgres,
      chain,
      databaseUrl,
      apps,
      gatewayUrl: stack.gatewayUrl,
      secrets,
      accounts,
      operator: async (args, stdin = '') => runCli(await cliBundle, args, cliEnv, stdin),
      logFiles: () => [
        ...Object.values(apps).flatMap((a) => (a.logFile ? [a.logFile] : [])),
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
