import { waitFor } from '@itp/testing/wait-for';
import { Api, basic } from './client/api.js';
import { Flows } from './client/flows.js';
import { send } from './client/http.js';
import { MixedLoad } from './faults/mixed-load.js';
import { runFault, type FaultFigures } from './faults/run-faults.js';
import { settleTransactions, type SettleFigures } from './faults/settle.js';
import { runFuzz, type FuzzFigures } from './fuzz/run-fuzz.js';
import { scanDatabase, scanLogs, scanRedis, type ScanFigures } from './hygiene/scan-stores.js';
import { SecretLedger } from './hygiene/secret-ledger.js';
import type { Profile } from './profiles.js';
import { runAccountRaces } from './races/account-races.js';
import { runRaces, type RaceOutcome } from './races/run-races.js';
import { checkRedisRestored, type RedisRestoreFigures } from './regressions/redis-restored.js';
import { runRegressions } from './regressions/run-regressions.js';
import { countRecords, query } from './stack/records.js';
import { startStack, type Stack } from './stack/start-stack.js';

export interface SuiteFigures {
  profile: Profile['name'];
  startedAt: string;
  seconds: number;
  stackStartSeconds: number;
  fuzz: FuzzFigures;
  /** After the fuzzing: every app's /health/ready through the gateway. */
  readyAfterFuzz: boolean;
  races: RaceOutcome[];
  /** The outage, input and one-time rules of the review checks, each a check that must pass. */
  regressions: RaceOutcome[];
  /** Redis restored from a snapshot taken before one use of each one-time thing: replays. */
  redisRestore: RedisRestoreFigures;
  faults: FaultFigures[];
  loadRequests: number;
  recordsBefore: Record<string, number>;
  recordsAfter: Record<string, number>;
  /** Acknowledged writes of the load (wallets, DIDs, transactions) missing afterwards. */
  lost: { wallets: number; dids: number; transactions: number; checked: number };
  settle: SettleFigures;
  readyAtEnd: boolean;
  /** Exits of app processes the suite did not ask for (crashes), by app. */
  crashes: Record<string, string[]>;
  hygiene: { secretsKnown: number; logs: ScanFigures; database: ScanFigures; redis: ScanFigures };
}

const FUZZ_IP = '198.51.100.66';
const LOAD_IP = '203.0.113.10';
const RACE_IP = '203.0.113.20';
/** The account races' refused logins count against their own address, not the other races'. */
const ACCOUNT_IP = '203.0.113.30';

async function ready(stack: Stack): Promise<boolean> {
  const answer = await send(stack.gatewayUrl, '/health/ready');
  return answer.status === 200;
}

/** Whether the stack is ready again within `ms` (false, not a throw, when it is not). */
async function eventuallyReady(stack: Stack, ms = 30_000): Promise<boolean> {
  return waitFor(() => ready(stack), {
    what: 'the gateway to answer /health/ready 200',
    timeoutMs: ms,
    intervalMs: 250,
  }).then(
    () => true,
    () => false,
  );
}

/** The whole suite on one freshly started stack; every process it started is stopped again. */
export async function runSuite(
  profile: Profile,
  log: (line: string) => void = () => undefined,
): Promise<SuiteFigures> {
  const t0 = Date.now();
  const say = (line: string) =>
    log(`[resilience ${((Date.now() - t0) / 1000).toFixed(1)} s] ${line}`);
  const stack = await startStack({ log: say });
  const stackStartSeconds = (Date.now() - t0) / 1000;
  try {
    const ledger = new SecretLedger();
    for (const token of Object.values(stack.secrets.internalTokens)) {
      ledger.add('serviceSecret', token);
    }
    ledger.add('serviceSecret', stack.secrets.walletMasterKeyMaterial);
    ledger.add('serviceSecret', stack.secrets.didKmsSecretKey);
    ledger.add('serviceSecret', stack.secrets.jwtSigningKeyD);
    ledger.add('serviceSecret', stack.accounts.client.secret);
    for (const u of stack.accounts.users) ledger.add('password', u.password);
    const fuzzFlows = new Flows(new Api(stack.gatewayUrl, FUZZ_IP), ledger);
    const raceFlows = new Flows(new Api(stack.gatewayUrl, RACE_IP), ledger);
    const loadFlows = new Flows(new Api(stack.gatewayUrl, LOAD_IP), ledger);

    const recordsBefore = await countRecords(stack.databaseUrl);
    const user = stack.accounts.users[0]!;
    const jwt = await fuzzFlows.login(user.id, user.password);
    say(`fuzzing: ${profile.fuzzInputs} inputs`);
    const fuzz = await runFuzz({
      base: stack.gatewayUrl,
      inputs: profile.fuzzInputs,
      seed: Number(process.env.RESILIENCE_SEED ?? 20_261_122),
      concurrency: profile.fuzzConcurrency,
      ip: FUZZ_IP,
      credentials: {
        jwt,
        basic: basic(stack.accounts.client.id, stack.accounts.client.secret).authorization,
      },
      onProgress: (n) => (n % 10_000 === 0 ? say(`fuzzed ${n}`) : undefined),
    });
    const readyAfterFuzz = await eventuallyReady(stack, 10_000);

    say('races');
    const races = await runRaces(stack, raceFlows);
    say('account races (a password reset under load)');
    races.push(
      ...(await runAccountRaces(
        stack,
        new Flows(new Api(stack.gatewayUrl, ACCOUNT_IP), ledger),
        stack.accounts.users[3]!,
      )),
    );
    say('review regressions (Redis restarts empty, a lease across a Redis stop, ids, depth)');
    const regressions = await runRegressions(stack, raceFlows, {
      leaseRedisDownMs: profile.regressionRedisDownMs,
    });
    await eventuallyReady(stack);
    say('Redis restored from a snapshot taken before one use of each one-time thing');
    const redisRestore = await checkRedisRestored(stack, raceFlows);
    await eventuallyReady(stack);

    say('faults under load');
    const load = new MixedLoad(stack, loadFlows);
    await load.prepare(profile.loadWorkers);
    load.start(profile.loadWorkers);
    const faults: FaultFigures[] = [];
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      for (const { kind, downMs } of profile.faults) {
        say(`fault ${kind} (${downMs} ms)`);
        faults.push(await runFault(kind, downMs, stack, loadFlows, load));
        await eventuallyReady(stack);
      }
    } finally {
      await load.stop();
    }

    say('settling transactions');
    const settle = await settleTransactions(stack);
    const recordsAfter = await countRecords(stack.databaseUrl);
    const lost = await findLost(stack, load);
    const readyAtEnd = await eventuallyReady(stack, 10_000);
    const crashes = Object.fromEntries(
      Object.values(stack.apps).map((app) => [app.name, app.unexpectedExits]),
    );

    say('secret scan');
    for (const app of Object.values(stack.apps)) await app.close();
    const hygiene = {
      secretsKnown: ledger.count(),
      logs: await scanLogs(stack.logFiles(), ledger),
      database: await scanDatabase(stack.databaseUrl, ledger),
      redis: await scanRedis(stack.redis.url, ledger),
    };
    return {
      profile: profile.name,
      startedAt: new Date(t0).toISOString(),
      seconds: (Date.now() - t0) / 1000,
      stackStartSeconds,
      fuzz,
      readyAfterFuzz,
      races,
      regressions,
      redisRestore,
      faults,
      loadRequests: load.records.length,
      recordsBefore,
      recordsAfter,
      lost,
      settle,
      readyAtEnd,
      crashes,
      hygiene,
    };
  } finally {
    await stack.close();
  }
}

async function findLost(stack: Stack, load: MixedLoad): Promise<SuiteFigures['lost']> {
  const { wallets, dids, transactions } = load.acknowledged;
  const lower = (xs: string[]) => xs.map((x) => x.toLowerCase());
  const have = async (sql: string, values: string[]) =>
    values.length === 0
      ? 0
      : Number((await query<{ n: string }>(stack.databaseUrl, sql, [values]))[0]?.n ?? 0);
  const w = await have(
    'SELECT count(*) AS n FROM wallet_keys WHERE lower(address) = ANY($1)',
    lower(wallets),
  );
  const d = await have(
    'SELECT count(*) AS n FROM did_veramo.identifier WHERE lower(did) = ANY($1)',
    lower(dids),
  );
  const t = await have(
    'SELECT count(*) AS n FROM token_transactions WHERE lower(hash) = ANY($1)',
    lower(transactions),
  );
  return {
    wallets: new Set(lower(wallets)).size - w,
    dids: new Set(lower(dids)).size - d,
    transactions: new Set(lower(transactions)).size - t,
    checked: wallets.length + dids.length + transactions.length,
  };
}
