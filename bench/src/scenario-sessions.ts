/**
 * Scenario 14 (sessions): what sessions cost to hold, for the sizing table (issue 37: memory and
 * Redis keys per 10,000 sessions and per 1,000 daily users). The state of a session lives in
 * auth-service: its key-value store (Redis, or in development without REDIS_URL the in-process
 * stand-in, so inside auth-service's memory) and its SQL database (SQLite in DATA_DIR on the dev
 * stack's embedded defaults, or DATABASE_URL).
 */
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { countedLoop, round } from './load.js';
import { addOidcClient, discover, environmentOf } from './oidc-flow.js';
import { offlineLogin, refreshGrant, type OfflineLogin } from './oidc-grants.js';
import type { Budget, ScenarioContext, ScenarioResult } from './scenarios.js';

/** At most this many sessions a run makes (fewer when the time below runs out first). */
export const SESSIONS_MAX = 1_000;

/** Seconds the logins and the refreshes may take at most, from the budget. */
export function sessionsTime(budget: Pick<Budget, 'seconds'>): {
  logins: number;
  refreshes: number;
} {
  return { logins: 4 * budget.seconds, refreshes: budget.seconds };
}

/**
 * A user-day, the unit of "per 1,000 daily users": one OpenID Connect login with offline_access
 * (a session at the provider, a grant, a refresh token) and a refresh-token grant every hour over
 * an 8-hour working day (the provider's access tokens last 1 h: OIDC_TOKEN_TTL_SECONDS), so 8
 * rotations. What it leaves is measured, not assumed: what N logins add, then what one rotation
 * of each of those N sessions adds.
 */
export const USER_DAY = { logins: 1, refreshes: 8 } as const;

/** What the stack holds at one moment. */
export interface StateSample {
  /** kB, by process. */
  memory: Record<string, { rss: number; pss: number }>;
  /** Keys and used_memory (bytes) of the stack's Redis; undefined on the in-process stand-in. */
  redis?: { keys: number; usedMemory: number };
  /** auth-service's SQLite: rows by table and its size (pages × page size); undefined otherwise. */
  sql?: { rows: Record<string, number>; bytes: number };
}

const kib = (text: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);

function memoryKiB(pids: Record<string, number>): StateSample['memory'] {
  const out: StateSample['memory'] = {};
  for (const [name, pid] of Object.entries(pids)) {
    try {
      const rss = kib(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
      let pss = rss;
      try {
        pss = kib(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss') || rss;
      } catch {
        // no smaps_rollup: RSS
      }
      out[name] = { rss, pss };
    } catch {
      // exited
    }
  }
  return out;
}

/** Where auth-service keeps its state, from its environment (as its store config resolves it). */
export function authStores(env: Record<string, string>): {
  redisUrl?: string;
  redisPrefix: string;
  sqliteFile?: string;
  sqlUrl: string;
} {
  const databaseUrl =
    env.DATABASE_URL || `sqlite:${(env.DATA_DIR ?? '').replace(/\/+$/, '')}/auth-service.sqlite`;
  const sqliteFile = databaseUrl.startsWith('sqlite:')
    ? databaseUrl.slice('sqlite:'.length)
    : undefined;
  return {
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    redisPrefix: env.REDIS_KEY_PREFIX ?? 'auth:',
    ...(sqliteFile && sqliteFile !== ':memory:' ? { sqliteFile } : {}),
    sqlUrl: databaseUrl.replace(/\/\/[^@/]*@/, '//…@'),
  };
}

async function redisState(url: string, prefix: string): Promise<StateSample['redis']> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let keys = 0;
    let cursor = '0';
    do {
      const [nextCursor, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = nextCursor;
      keys += batch.length;
    } while (cursor !== '0');
    const info = await redis.info('memory');
    const usedMemory = Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? 0);
    return { keys, usedMemory };
  } finally {
    redis.disconnect();
  }
}

function sqliteState(file: string): StateSample['sql'] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows: Record<string, number> = {};
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as Array<{ name: string }>;
    for (const { name } of tables) {
      const row = db.prepare(`SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as {
        n: number;
      };
      rows[name] = row.n;
    }
    // The database's size as this reader sees it (committed pages, those still in the WAL
    // included): steadier than the files' sizes, which move with checkpoints.
    const pages = db.pragma('page_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    return { rows, bytes: pages * pageSize };
  } finally {
    db.close();
  }
}

/** What is held per session (or per refresh), from two samples `n` operations apart. */
export interface PerOperation {
  /** kB by process, RSS and PSS. */
  memory: Record<string, { rss: number; pss: number }>;
  redisKeys?: number;
  /** Bytes. */
  redisMemory?: number;
  /** Rows added, by table (tables that changed only). */
  sqlRows?: Record<string, number>;
  /** Bytes. */
  sqlBytes?: number;
}

export function perOperation(before: StateSample, after: StateSample, n: number): PerOperation {
  const each = (delta: number) => delta / Math.max(n, 1);
  const memory: PerOperation['memory'] = {};
  for (const [name, m] of Object.entries(after.memory)) {
    const b = before.memory[name];
    if (b) memory[name] = { rss: each(m.rss - b.rss), pss: each(m.pss - b.pss) };
  }
  const out: PerOperation = { memory };
  if (before.redis && after.redis) {
    out.redisKeys = each(after.redis.keys - before.redis.keys);
    out.redisMemory = each(after.redis.usedMemory - before.redis.usedMemory);
  }
  if (before.sql && after.sql) {
    const rows: Record<string, number> = {};
    for (const [table, count] of Object.entries(after.sql.rows)) {
      const delta = count - (before.sql.rows[table] ?? 0);
      if (delta !== 0) rows[table] = each(delta);
    }
    out.sqlRows = rows;
    out.sqlBytes = each(after.sql.bytes - before.sql.bytes);
  }
  return out;
}

/** `a + k × b`, field by field (a user-day: a login plus k refreshes). */
export function combine(a: PerOperation, b: PerOperation, k: number): PerOperation {
  const memory: PerOperation['memory'] = {};
  for (const [name, m] of Object.entries(a.memory)) {
    const other = b.memory[name] ?? { rss: 0, pss: 0 };
    memory[name] = { rss: m.rss + k * other.rss, pss: m.pss + k * other.pss };
  }
  const out: PerOperation = { memory };
  if (a.redisKeys !== undefined) out.redisKeys = a.redisKeys + k * (b.redisKeys ?? 0);
  if (a.redisMemory !== undefined) out.redisMemory = a.redisMemory + k * (b.redisMemory ?? 0);
  if (a.sqlRows) {
    const rows = { ...a.sqlRows };
    for (const [table, n] of Object.entries(b.sqlRows ?? {}))
      rows[table] = (rows[table] ?? 0) + k * n;
    out.sqlRows = rows;
  }
  if (a.sqlBytes !== undefined) out.sqlBytes = a.sqlBytes + k * (b.sqlBytes ?? 0);
  return out;
}

/** One line of what `per` (per operation) makes for `times` operations. */
export function describeScaled(per: PerOperation, times: number): string {
  const mib = (kB: number) => `${round((kB * times) / 1024, 1)} MiB`;
  const sumPss = Object.values(per.memory).reduce((s, m) => s + m.pss, 0);
  const byProcess = Object.entries(per.memory)
    .filter(([, m]) => Math.abs(m.pss * times) >= 512 || Math.abs(m.rss * times) >= 512)
    .map(([name, m]) => `${name} ${mib(m.pss)} PSS / ${mib(m.rss)} RSS`)
    .join(', ');
  const parts = [`PSS of the stack ${mib(sumPss)}${byProcess ? ` (${byProcess})` : ''}`];
  if (per.redisKeys !== undefined) {
    parts.push(
      `Redis ${round(per.redisKeys * times)} keys, used_memory ` +
        `${round(((per.redisMemory ?? 0) * times) / 1024 / 1024, 1)} MiB`,
    );
  }
  if (per.sqlRows) {
    const rows = Object.entries(per.sqlRows)
      .map(([table, n]) => `${table} ${round(n * times)}`)
      .join(', ');
    parts.push(
      `SQL rows ${rows || 'none'}; SQLite pages ${round(((per.sqlBytes ?? 0) * times) / 1024 / 1024, 1)} MiB`,
    );
  }
  return parts.join('; ');
}

/**
 * 14. Sessions, for the sizing table: N OpenID Connect password logins with offline_access
 * through the gateway (each a session, a grant and a refresh token at the provider; N ≤ 1,000,
 * bounded in time), then one refresh-token grant of each; the state each adds — the stack's
 * Redis keys and used_memory (none on the dev stack's embedded defaults: the in-process stand-in
 * is in auth-service's memory), auth-service's SQLite rows and bytes, the PSS and RSS of every
 * process — scaled linearly to 10,000 sessions and to 1,000 daily users (a user-day: one login
 * and hourly refreshes over 8 h). No reference.
 */
export async function sessionsScenario(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { urls, pids } = ctx.stack;
  const { cryptoConnections } = ctx.budget;
  const authPid = pids['auth-service'];
  if (authPid === undefined) throw new Error('no auth-service process found in /proc');
  const env = environmentOf(authPid);
  const stores = authStores(env);
  const client = await addOidcClient(env, 'https://bench.example/oidc/callback');
  const endpoints = await discover(urls.gateway);
  const user = { id: 'demo', password: 'demo-password' };
  const sample = async (): Promise<StateSample> => ({
    memory: memoryKiB(pids),
    ...(stores.redisUrl ? { redis: await redisState(stores.redisUrl, stores.redisPrefix) } : {}),
    ...(stores.sqliteFile ? { sql: sqliteState(stores.sqliteFile) } : {}),
  });
  // One login first, outside the figures: the flow works, the client secret is checked once
  // (then remembered). Then one login per loop at once, also outside: the processes' heaps have
  // grown to what that many flows at a time need before the first sample, so the samples' memory
  // differences are more the sessions' than the load's.
  await offlineLogin(urls.gateway, endpoints, client, user);
  await Promise.all(
    Array.from({ length: cryptoConnections }, () =>
      offlineLogin(urls.gateway, endpoints, client, user),
    ),
  );
  let firstError: string | undefined;
  const failing =
    <T>(op: (i: number) => Promise<T>) =>
    async (i: number) => {
      try {
        return await op(i);
      } catch (err) {
        firstError ??= err instanceof Error ? err.message : String(err);
        throw err;
      }
    };
  const time = sessionsTime(ctx.budget);
  const sessions: OfflineLogin[] = [];
  const s0 = await sample();
  const logins = await countedLoop(
    `OIDC password logins with offline_access through the gateway (sessions), ${cryptoConnections} at a time, up to ${SESSIONS_MAX} or ${time.logins} s`,
    SESSIONS_MAX,
    time.logins,
    cryptoConnections,
    failing(async () => {
      sessions.push(await offlineLogin(urls.gateway, endpoints, client, user));
    }),
  );
  const s1 = await sample();
  let refreshed = 0;
  const refreshes = await countedLoop(
    `one refresh-token grant (rotation) of each session, ${cryptoConnections} at a time, up to ${time.refreshes} s`,
    sessions.length,
    time.refreshes,
    cryptoConnections,
    failing(async (i) => {
      const session = sessions[i]!;
      session.refreshToken = await refreshGrant(endpoints, client, session.refreshToken);
      refreshed += 1;
    }),
  );
  const s2 = await sample();
  const perSession = perOperation(s0, s1, sessions.length);
  const perRefresh = perOperation(s1, s2, refreshed);
  const perUserDay = combine(perSession, perRefresh, USER_DAY.refreshes);
  const errors = logins.errors + refreshes.errors;
  return {
    id: 14,
    name: 'sessions',
    figures: [logins, refreshes],
    checks: [
      {
        target: '0 failed logins or grants',
        value: String(errors),
        met: errors === 0,
      },
      {
        target: 'per 10,000 sessions (no target: the sizing table’s figure)',
        value: describeScaled(perSession, 10_000),
        met: true,
      },
      {
        target: `per 1,000 daily users (a user-day: ${USER_DAY.logins} login + ${USER_DAY.refreshes} hourly refreshes)`,
        value: describeScaled(perUserDay, 1_000),
        met: true,
      },
    ],
    notes: [
      `${sessions.length} sessions made (up to ${SESSIONS_MAX}, or what ${time.logins} s allow), ` +
        `${refreshed} of them refreshed once; each figure is the difference of two samples ÷ ` +
        'the operations between them, scaled linearly (each session is its own records; the ' +
        'processes’ memory grows in heap steps and holds garbage not yet collected, so it is the ' +
        'roughest of the figures — more sessions give a steadier one)',
      `per 1,000 refreshes: ${describeScaled(perRefresh, 1_000)}`,
      stores.redisUrl
        ? `key-value store: Redis ${stores.redisUrl.replace(/\/\/[^@/]*@/, '//…@')}, keys under "${stores.redisPrefix}"`
        : 'key-value store: the in-process stand-in (no REDIS_URL, development): its keys are ' +
          'not countable from outside and its memory is in auth-service’s PSS; run with ' +
          'REDIS_URL set for Redis keys and used_memory',
      stores.sqliteFile
        ? `SQL: ${stores.sqlUrl} (rows counted by table; its size: pages × page size, those in the WAL included)`
        : `SQL: ${stores.sqlUrl} (not SQLite: rows and bytes not measured)`,
      'records live until they expire: the session 8 h (OIDC_SESSION_TTL_SECONDS), access ' +
        'tokens 1 h, refresh tokens and their offline grant 30 days from the login ' +
        '(OIDC_REFRESH_TOKEN_TTL_SECONDS), so a steady state holds the refresh-token state of ' +
        'up to 30 user-days per daily user',
      ...(firstError ? [`first failure: ${firstError}`] : []),
    ],
  };
}
