import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChainUnavailableError, createChainClient, type ChainClient } from '@itp/chain';
import type { BlockRecord } from '@itp/schemas';
import {
  createTestDatabase,
  manualClock,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import { Redis } from 'ioredis';
import { RECORD_SHAPE_VERSION } from './cache/record-shape.js';
import { countingChain, type CountingChain } from './testing/counting-chain.js';
import { startScriptableTestChain, type TestChain } from './testing/dev-chain.js';
import { startHarness, type Harness } from './testing/harness.js';

/**
 * "A final block never reaches the node twice": every request to the node goes through a
 * counting spy around a real ChainClient, a real anvil behind it, real Redis shared by replicas.
 */
let chain: TestChain;
let db: TestDatabase;
let txHash: string;
const keyPrefix = uniquePrefix('block-cache');
const open: Harness[] = [];

async function replica(
  env: Record<string, string> = {},
  failFirst?: { method: string; firstParam: unknown },
  now?: () => number,
): Promise<{ api: Harness; spy: CountingChain }> {
  const spy = countingChain(
    failFirst ? failingOnce(chain.url, failFirst) : createChainClient({ rpcUrl: chain.url }),
  );
  const api = await startHarness({
    chainUrl: chain.url,
    databaseUrl: db.url,
    redisUrl: testRedisUrl(),
    keyPrefix,
    chain: spy,
    env: { BLOCK_INDEX_ENABLED: 'false', BLOCK_FINALITY_DEPTH: '64', ...env },
    ...(now ? { now } : {}),
  });
  open.push(api);
  return { api, spy };
}

/** A real ChainClient whose first request of one method and first param fails (a node hiccup). */
function failingOnce(url: string, call: { method: string; firstParam: unknown }): ChainClient {
  const inner = createChainClient({ rpcUrl: url });
  let failed = false;
  return {
    request<T>(method: string, params: unknown[] = []): Promise<T> {
      if (!failed && method === call.method && params[0] === call.firstParam) {
        failed = true;
        return Promise.reject(new ChainUnavailableError('the node is down (test)'));
      }
      return inner.request<T>(method, params);
    },
    chainId: () => inner.chainId(),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
}

beforeAll(async () => {
  chain = await startScriptableTestChain();
  db = await createTestDatabase();
  txHash = await chain.send(3n); // block 1
  await chain.mine(100); // blocks 1 … 37 are now final (head 101, depth 64)
});

afterAll(async () => {
  for (const api of open) await api.close();
  await db?.drop();
  await chain?.stop();
});

describe('the cache of final blocks', () => {
  it('asks the node once for a final block, whatever form it is asked in', async () => {
    const { api, spy } = await replica();
    const first = await api.data<BlockRecord>('getBlock', [1]);
    const again = [
      await api.data('getBlock', [1]),
      await api.data('getBlock', ['0x1']),
      await api.data('getBlock', [first.hash]),
    ];
    expect(again).toEqual([first, first, first]);
    const full = await api.data<BlockRecord>('getBlock', [1, true]);
    expect(full.transactions).toEqual([expect.objectContaining({ hash: txHash })]);
    await api.data('getBlock', [first.hash, true]);
    expect(spy.count('eth_getBlockByNumber', '0x1')).toBe(1);
    expect(spy.count('eth_getBlockByHash')).toBe(0);
  });

  it('another replica sharing Redis does not ask the node for it at all', async () => {
    const { api, spy } = await replica();
    const block = await api.data<BlockRecord>('getBlock', [1, true]);
    await api.data('getBlock', [block.hash]);
    expect(spy.count('eth_getBlockByNumber', '0x1')).toBe(0);
    expect(spy.count('eth_getBlockByHash')).toBe(0);
    const metrics = await (await fetch(`${api.metricsUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /block_cache_lookups_total\{[^}]*cache="final"[^}]*outcome="kv"[^}]*\} [1-9]/,
    );
  });

  it('never reads entries an older record shape wrote (keys carry RECORD_SHAPE_VERSION)', async () => {
    const redis = new Redis(testRedisUrl());
    try {
      const genesis = await chain.call<{ hash: string }>('eth_getBlockByNumber', ['0x0', false]);
      const namespace = `${keyPrefix}g${genesis.hash.slice(2, 18)}:`;
      const block9 = await chain.call<{ hash: string }>('eth_getBlockByNumber', ['0x9', false]);
      // What a replica of the previous shape would have left: unversioned keys, records without
      // the fields added since (here: nothing but the hash and number).
      const stale = JSON.stringify({ hash: block9.hash, number: 9 });
      await redis.set(`${namespace}block:n:9`, block9.hash);
      await redis.set(`${namespace}block:h:${block9.hash.toLowerCase()}`, stale);
      const { api, spy } = await replica();
      const answer = await api.data<BlockRecord & { numberRaw?: string }>('getBlock', [9]);
      expect(answer).toMatchObject({ hash: block9.hash, number: 9, numberRaw: '0x9' });
      expect(spy.count('eth_getBlockByNumber', '0x9')).toBe(1);
      const written = await redis.keys(`${namespace}*block:*:9`);
      expect(written).toEqual(
        expect.arrayContaining([`${namespace}v${RECORD_SHAPE_VERSION}:block:n:9`]),
      );
    } finally {
      redis.disconnect();
    }
  });

  it('keeps a final block first asked by hash under its hash', async () => {
    const hash = (await chain.call<{ hash: string }>('eth_getBlockByNumber', ['0x2', false])).hash;
    const { api, spy } = await replica();
    const first = await api.data<BlockRecord>('getBlock', [hash]);
    expect(await api.data('getBlock', [hash, false])).toEqual(first);
    expect(spy.count('eth_getBlockByHash', hash)).toBe(1);
  });

  it('asks the node once for a transaction and a receipt of a final block', async () => {
    const { api, spy } = await replica();
    for (let i = 0; i < 3; i += 1) {
      await api.data('getTransaction', [txHash]);
      await api.data('getTransactionReceipt', [txHash]);
    }
    expect(spy.count('eth_getTransactionByHash')).toBe(1);
    expect(spy.count('eth_getTransactionReceipt')).toBe(1);
    const { api: other, spy: otherSpy } = await replica();
    await other.data('getTransaction', [txHash]);
    await other.data('getTransactionReceipt', [txHash]);
    expect(otherSpy.count('eth_getTransactionByHash')).toBe(0);
    expect(otherSpy.count('eth_getTransactionReceipt')).toBe(0);
  });

  it('does not keep a failure: the next call for the final block asks the node again', async () => {
    const { api, spy } = await replica({}, { method: 'eth_getBlockByNumber', firstParam: '0x4' });
    const failed = await api.call('getBlock', [4]);
    expect(failed.result).toEqual({
      resultCode: '503',
      resultMessage: expect.stringContaining('node is down'),
      resultData: '',
    });
    const block = await api.data<BlockRecord>('getBlock', [4]);
    expect(block.number).toBe(4);
    await api.data('getBlock', [4]);
    expect(spy.count('eth_getBlockByNumber', '0x4')).toBe(2);
  });
});

describe('blocks that may still change', () => {
  it('are asked again once the tip TTL has passed', async () => {
    const clock = manualClock();
    const { api, spy } = await replica({ BLOCK_TIP_TTL_MS: '300' }, undefined, clock.now);
    await api.data('getBlock', ['latest']);
    clock.advance(299);
    await api.data('getBlock', ['latest']);
    expect(spy.count('eth_getBlockByNumber', 'latest')).toBe(1);
    clock.advance(2);
    await api.data('getBlock', ['latest']);
    expect(spy.count('eth_getBlockByNumber', 'latest')).toBe(2);
  });

  it('are kept only for the tip TTL; "not found" is never kept', async () => {
    const { api, spy } = await replica({ BLOCK_TIP_TTL_MS: '60000' });
    const head = await chain.head();
    await api.data('getBlock', []);
    await api.data('getBlock', ['latest']);
    expect(spy.count('eth_getBlockByNumber', 'latest')).toBe(1);
    const beyond = `0x${(head + 5).toString(16)}`;
    for (let i = 0; i < 2; i += 1) {
      expect((await api.call('getBlock', [beyond])).result?.resultCode).toBe('404');
    }
    expect(spy.count('eth_getBlockByNumber', beyond)).toBe(2);
  });

  it('are asked again every time with BLOCK_TIP_TTL_MS=0, final blocks still once', async () => {
    const { api, spy } = await replica({ BLOCK_TIP_TTL_MS: '0' });
    const head = await chain.head();
    const recent = `0x${head.toString(16)}`;
    for (let i = 0; i < 2; i += 1) {
      await api.data('getBlock', ['latest']);
      await api.data('getBlock', [head]);
      await api.data('getBlock', [3]);
    }
    expect(spy.count('eth_getBlockByNumber', 'latest')).toBe(2);
    expect(spy.count('eth_getBlockByNumber', recent)).toBe(2);
    expect(spy.count('eth_getBlockByNumber', '0x3')).toBe(1);
  });

  it('a block becomes cached for good once it is final', async () => {
    const { api, spy } = await replica({ BLOCK_TIP_TTL_MS: '0', BLOCK_FINALITY_DEPTH: '2' });
    const n = (await chain.head()) + 1;
    await chain.mine(1);
    await api.data('getBlock', [n]);
    await api.data('getBlock', [n]);
    expect(spy.count('eth_getBlockByNumber', `0x${n.toString(16)}`)).toBe(2);
    await chain.mine(2);
    await api.data('getBlock', [n]);
    await api.data('getBlock', [n]);
    expect(spy.count('eth_getBlockByNumber', `0x${n.toString(16)}`)).toBe(3);
  });
});
