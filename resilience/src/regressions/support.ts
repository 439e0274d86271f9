import { Redis } from 'ioredis';
import { Api, type RpcAnswer } from '../client/api.js';
import { Flows } from '../client/flows.js';

/** Where the regression checks send their transfers to. */
export const SINK = '0x000000000000000000000000000000000000bEEF';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `{"a":{"a":…1…}}`, `levels` deep, as text (JSON.stringify could not make it). */
export const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/**
 * The same flows as another client address (X-Forwarded-For `ip`): a check's refused logins,
 * client authentications and tempKeys count against its own per-address limits, never against
 * those of the races or of the other checks.
 */
export function flowsAs(flows: Flows, ip: string): Flows {
  return new Flows(new Api(flows.api.base, ip), flows.ledger);
}

/**
 * How a JSON-RPC answer reads in a report: its resultCode, `-32300` for a JSON-RPC error,
 * `HTTP 504` for a non-200 status, `no answer (…)` when none came.
 */
export function rpcOutcome(answer: RpcAnswer): string {
  if (answer.status === 0) return `no answer (${answer.error ?? 'unknown'})`;
  if (answer.status !== 200) return `HTTP ${answer.status}`;
  if (answer.rpcError) return String(answer.rpcError.code);
  return answer.result?.resultCode ?? 'no resultCode';
}

/**
 * A short-lived connection of the suite's own to the stack's Redis (the keys the services
 * wrote, e.g. `token:nonce:lease:<address>`); never queues a command while Redis is down.
 */
export async function withRedis<T>(url: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}
