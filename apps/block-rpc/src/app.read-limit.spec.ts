import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Redis } from 'ioredis';
import {
  createTestDatabase,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import { startHarness, type Harness, type JsonRpcAnswer } from './testing/harness.js';

/**
 * The per-client-address read limit (RATE_LIMIT_READ_PER_MINUTE, docs/api.md §5) on real Redis:
 * every call counts once, whether the JSON-RPC path or the node:http fast path answers it, each
 * call of a batch on its own; over the limit the service error "429" (HTTP 200, as every JSON-RPC
 * answer), per client address as the trusted gateway reports it.
 */
describe('block-rpc read limit per client address', () => {
  const LIMIT = 5;
  const prefix = uniquePrefix('block-read-limit');
  let db: TestDatabase;
  let api: Harness;
  let toExpress: ReturnType<typeof jest.spyOn>;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startHarness({
      chainUrl: testChainUrl(),
      databaseUrl: db.url,
      redisUrl: testRedisUrl(),
      keyPrefix: prefix,
      env: {
        BLOCK_INDEX_ENABLED: 'false',
        // Block 0 is final at once: its getBlock is the fast path's once in memory.
        BLOCK_FINALITY_DEPTH: '0',
        RATE_LIMIT_READ_PER_MINUTE: String(LIMIT),
        TRUST_PROXY: 'loopback',
      },
    });
    const app = api.app.service.app as unknown as { handle: (...args: unknown[]) => unknown };
    toExpress = jest.spyOn(app, 'handle');
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const callFrom = async (client: string, body: unknown) => {
    const res = await api.post(body, { 'x-forwarded-for': client });
    expect(res.status).toBe(200);
    return (await res.json()) as JsonRpcAnswer | JsonRpcAnswer[];
  };
  const one = (method: string, params: unknown[] = [], id = 1) => ({
    jsonrpc: '2.0',
    id,
    method,
    params,
  });
  const codeOf = (answer: JsonRpcAnswer | JsonRpcAnswer[]) =>
    (answer as JsonRpcAnswer).result?.resultCode;

  it('counts every call, on the fast path too; over the limit "429" saying when to retry, for that address only', async () => {
    const client = '203.0.113.80';
    // 1: through the JSON-RPC path (block 0 comes into memory), 2-4: the fast path answers.
    expect(codeOf(await callFrom(client, one('getBlock', [0])))).toBe('200');
    const viaExpress = toExpress.mock.calls.length;
    for (let i = 0; i < 3; i += 1) {
      expect(codeOf(await callFrom(client, one('getBlock', [0])))).toBe('200');
    }
    expect(toExpress.mock.calls.length).toBe(viaExpress);
    // 5: another method.
    expect(codeOf(await callFrom(client, one('getBlockNumber')))).toBe('200');

    // 6: the fast path's call is refused like any other.
    const over = (await callFrom(client, one('getBlock', [0]))) as JsonRpcAnswer;
    expect(over.result).toEqual({
      resultCode: '429',
      resultMessage: expect.stringMatching(
        /^too many block API calls from this client \(at most 5 per minute\): retry in \d+ s$/,
      ),
      resultData: '',
    });
    // Each call of a batch counts and is refused on its own.
    const batch = (await callFrom(client, [
      one('getBlockNumber', [], 1),
      one('getTransactionStats', [{ from: '2026-01-01', to: '2026-01-02' }], 2),
    ])) as JsonRpcAnswer[];
    expect(batch.map((answer) => answer.result?.resultCode)).toEqual(['429', '429']);

    // Another address has its own counter.
    expect(codeOf(await callFrom('203.0.113.81', one('getBlock', [0])))).toBe('200');
    expect(codeOf(await callFrom('203.0.113.81', one('getBlockNumber')))).toBe('200');

    // One counter per address in Redis, with the minute's time to live.
    const redis = new Redis(testRedisUrl());
    try {
      const keys = (await redis.keys(`${prefix}*ratelimit:read:*`)).sort();
      expect(keys.map((key) => key.slice(key.indexOf('ratelimit:')))).toEqual([
        'ratelimit:read:203.0.113.80',
        'ratelimit:read:203.0.113.81',
      ]);
      expect(await redis.pttl(keys[0]!)).toBeGreaterThan(0);
      expect(await redis.pttl(keys[0]!)).toBeLessThanOrEqual(60_000);
    } finally {
      redis.disconnect();
    }
  });
});
