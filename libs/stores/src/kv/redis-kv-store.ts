import type { Socket } from 'node:net';
import type { Cluster, Redis } from 'ioredis';
import { inSpan, type Logger } from '@itp/service-kit';
import { driverError, toStoreError } from '../unavailable.js';
import type { KvStore, SetOptions } from './kv-store.js';
import { createRedisClient, type RedisTopology } from './redis-topology.js';
import { toTtlMs } from './ttl-ms.js';

export interface RedisKvStoreOptions {
  /** `redis://` or `rediss://` URL (credentials in the URL are never logged). */
  url: string;
  /** Standalone (default), Sentinel or Cluster: see redis-topology.ts. */
  topology?: RedisTopology;
  /** Prepended to every key, e.g. `token-rpc:`; use one per service. */
  keyPrefix?: string;
  logger?: Logger;
  /** Upper bound for any single call, queued or in flight. Default 2000 ms. */
  commandTimeoutMs?: number;
  /** Upper bound for establishing a connection. Default 5000 ms. */
  connectTimeoutMs?: number;
}

/**
 * Compare-and-swap in one server-side step. ARGV: expected, mode ('set' | 'del'), next, ttlMs
 * ('' = keep the remaining TTL via KEEPTTL). A missing key (GET → false) never matches.
 */
const CAS_LUA = `
local current = redis.call('GET', KEYS[1])
if current ~= ARGV[1] then return 0 end
if ARGV[2] == 'del' then
  redis.call('DEL', KEYS[1])
elseif ARGV[4] == '' then
  redis.call('SET', KEYS[1], ARGV[3], 'KEEPTTL')
else
  redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
end
return 1
`;

/** INCR that sets the TTL (ARGV[1], '' = none) only when this call created the counter. */
const INCR_LUA = `
local created = redis.call('EXISTS', KEYS[1]) == 0
local value = redis.call('INCR', KEYS[1])
if created and ARGV[1] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return value
`;

const DISCONNECT_TIMEOUT_MS = 100;

interface ScriptCommands {
  kvCompareAndSwap(
    key: string,
    expected: string,
    mode: 'set' | 'del',
    next: string,
    ttlMs: string,
  ): Promise<number>;
  kvIncr(key: string, ttlMs: string): Promise<number>;
}

/** Reconnect delay: 100 ms doubling to at most 2 s, with jitter so instances do not stampede. */
export function reconnectDelayMs(attempt: number): number {
  const base = Math.min(100 * 2 ** Math.min(attempt - 1, 5), 2000);
  return Math.round(base / 2 + Math.random() * (base / 2));
}

/**
 * The KvStore port over Redis (≥ 6.2: GETDEL, SET KEEPTTL). Every method is one atomic server-side
 * operation. Connection policy, chosen so that a dead Redis fails calls fast instead of hanging:
 * - connects at construction (not lazily) so that start-up logs show a bad URL at once;
 * - calls issued while (re)connecting are queued, but each call is bounded by `commandTimeoutMs`
 *   and by `maxRetriesPerRequest: 1` (the queue is failed after the second failed reconnect);
 * - calls in flight when a connection drops are rejected, not re-sent: a re-sent GETDEL or CAS
 *   could report "not found"/"no match" for an operation that did succeed;
 * - reconnects forever with capped exponential backoff; readiness (`ping`) reports the outage;
 * - a call that fails because Redis is unreachable (no connection after the retry, connection
 *   closed, command timeout, LOADING/MASTERDOWN…) rejects with ServiceUnavailableError (cause:
 *   the ioredis error), so that callers answer 503 rather than 500; `ping` rejects with the
 *   ioredis error itself (readiness quotes it).
 */
export class RedisKvStore implements KvStore {
  private readonly redis: Redis | Cluster;
  private readonly scripts: ScriptCommands;
  private closing: Promise<void> | undefined;
  private closed = false;
  /** Set on the first 'ready': from then on, not ready means the connection was lost. */
  private everReady = false;

  constructor(options: RedisKvStoreOptions) {
    const logger = options.logger;
    this.redis = createRedisClient(options.url, options.topology ?? { mode: 'standalone' }, {
      keyPrefix: options.keyPrefix ?? '',
      lazyConnect: false,
      enableOfflineQueue: true,
      enableReadyCheck: true,
      maxRetriesPerRequest: 1,
      autoResendUnfulfilledCommands: false,
      commandTimeout: options.commandTimeoutMs ?? 2000,
      connectTimeout: options.connectTimeoutMs ?? 5000,
      disconnectTimeout: DISCONNECT_TIMEOUT_MS,
      retryStrategy: reconnectDelayMs,
      // After a failover the old primary answers READONLY: reconnect and resend that command.
      reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 2 : false),
    });
    this.redis.defineCommand('kvCompareAndSwap', { numberOfKeys: 1, lua: CAS_LUA });
    this.redis.defineCommand('kvIncr', { numberOfKeys: 1, lua: INCR_LUA });
    this.scripts = this.redis as unknown as ScriptCommands;

    // One log line per outage, not one per reconnect attempt. Always listen: an 'error' event
    // without a listener is printed by ioredis itself.
    let down = false;
    this.redis.on('error', (err: Error) => {
      if (down) return;
      down = true;
      logger?.warn({ err: { message: err.message, name: err.name } }, 'redis connection error');
    });
    this.redis.on('ready', () => {
      if (down) logger?.info('redis connection restored');
      down = false;
      this.everReady = true;
    });
  }

  get(key: string): Promise<string | null> {
    return this.run('GET', () => this.redis.get(key));
  }

  set(key: string, value: string, options: SetOptions = {}): Promise<boolean> {
    return this.run('SET', () => {
      if (options.ifConnected) this.assertConnected();
      return this.doSet(key, value, options);
    });
  }

  /**
   * For `ifConnected` calls: once the connection has been ready, throws "Stream isn't
   * writeable" (→ Redis unavailable) while it is not, so the command is never put in the offline
   * queue, where ioredis would send it at reconnect even after its caller timed out. Before the
   * first connection (a service just started) the command waits for it as any other.
   */
  private assertConnected(): void {
    if (this.everReady && this.redis.status !== 'ready') {
      throw new Error("Stream isn't writeable and the call asked not to be queued");
    }
  }

  private async doSet(key: string, value: string, options: SetOptions): Promise<boolean> {
    const ttl = options.ttlMs === undefined ? undefined : toTtlMs(options.ttlMs);
    let reply: string | null;
    if (ttl !== undefined && options.onlyIfAbsent) {
      reply = await this.redis.set(key, value, 'PX', ttl, 'NX');
    } else if (ttl !== undefined) {
      reply = await this.redis.set(key, value, 'PX', ttl);
    } else if (options.onlyIfAbsent) {
      reply = await this.redis.set(key, value, 'NX');
    } else {
      reply = await this.redis.set(key, value);
    }
    return reply === 'OK';
  }

  getDel(key: string): Promise<string | null> {
    return this.run('GETDEL', () => this.redis.getdel(key));
  }

  del(key: string): Promise<boolean> {
    return this.run('DEL', async () => (await this.redis.del(key)) > 0);
  }

  async compareAndSwap(
    key: string,
    expected: string,
    next: string | null,
    options: { ttlMs?: number; ifConnected?: boolean } = {},
  ): Promise<boolean> {
    const ttl = options.ttlMs === undefined ? '' : String(toTtlMs(options.ttlMs));
    return this.run('EVALSHA cas', async () => {
      if (options.ifConnected) this.assertConnected();
      return (
        (await this.scripts.kvCompareAndSwap(
          key,
          expected,
          next === null ? 'del' : 'set',
          next ?? '',
          ttl,
        )) === 1
      );
    });
  }

  async incr(key: string, options: { ttlMs?: number } = {}): Promise<number> {
    const ttl = options.ttlMs === undefined ? '' : String(toTtlMs(options.ttlMs));
    return this.run('EVALSHA incr', () => this.scripts.kvIncr(key, ttl));
  }

  ttlMs(key: string): Promise<number | null> {
    return this.run('PTTL', async () => {
      const remaining = await this.redis.pttl(key);
      return remaining < 0 ? null : Math.max(1, remaining);
    });
  }

  async ping(): Promise<void> {
    try {
      await this.run('PING', () => this.redis.ping());
    } catch (err) {
      throw driverError(err);
    }
  }

  /**
   * One call: refused once this store is closed (a plain Error, like MemoryKvStore: a call after
   * close() is a wiring mistake, not an outage); a Redis outage becomes ServiceUnavailableError.
   */
  private async run<T>(op: string, call: () => Promise<T>): Promise<T> {
    this.assertOpen();
    try {
      return await inSpan(
        `redis ${op}`,
        { attributes: { 'db.system': 'redis', 'db.operation': op } },
        call,
      );
    } catch (err) {
      throw toStoreError('redis', err);
    }
  }

  /**
   * Quits gracefully when connected, else drops the connection and stops reconnecting. Resolves
   * once no socket or timer of this client is left, so that tests and shutdown exit cleanly.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    const redis = this.redis;
    if (redis.status === 'ready') {
      const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
      if (
        await redis.quit().then(
          () => true,
          () => false,
        )
      ) {
        await withDeadline(ended, 1000);
        return;
      }
    }
    if (redis.status === 'end') return;
    const stream = ('stream' in redis ? redis.stream : undefined) as Socket | undefined;
    const streamOpen = stream !== undefined && !stream.destroyed;
    const streamClosed = streamOpen
      ? new Promise<void>((resolve) => stream.once('close', () => resolve()))
      : undefined;
    redis.disconnect();
    // ioredis arms a destroy timer of DISCONNECT_TIMEOUT_MS on disconnect; for a socket that had
    // already closed (Redis down) nothing clears it early, so wait it out.
    await (streamClosed
      ? withDeadline(streamClosed, DISCONNECT_TIMEOUT_MS + 50)
      : sleep(DISCONNECT_TIMEOUT_MS + 10));
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Connection is closed.');
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function withDeadline(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<void>((r) => (timer = setTimeout(r, ms)))]).finally(
    () => clearTimeout(timer),
  );
}
