import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createChainClient } from '@itp/chain';
import type { GetTransactionStatsResult } from '@itp/schemas';
import { waitFor, testRedisUrl, uniquePrefix } from '@itp/testing';
import { countingChain } from './testing/counting-chain.js';
import { startScriptableTestChain, type TestChain } from './testing/dev-chain.js';
import { startHarness, type Harness } from './testing/harness.js';
import { freshDatabase, type DialectDatabase } from './testing/test-databases.js';

/** Seconds of a UTC day in 2030 at a given hour. */
const at = (day: number, hour = 12, minute = 0) => Date.UTC(2030, 0, day, hour, minute) / 1000;

async function stats(api: Harness, from: string, to: string) {
  return api.data<GetTransactionStatsResult>('getTransactionStats', [{ from, to }]);
}

function daily(result: GetTransactionStatsResult): Record<string, number> {
  return Object.fromEntries(result.daily.map((d) => [d.date, d.count]));
}

describe.each(['postgres', 'sqlite'] as const)('getTransactionStats on %s', (dialect) => {
  let chain: TestChain;
  let database: DialectDatabase;
  let api: Harness;
  const keyPrefix = uniquePrefix('block-stats');

  const start = (extra: Partial<Parameters<typeof startHarness>[0]> = {}) =>
    startHarness({
      chainUrl: chain.url,
      databaseUrl: database.url,
      redisUrl: testRedisUrl(),
      keyPrefix,
      env: { STATS_MAX_DAYS: '31', BLOCK_FINALITY_DEPTH: '64' },
      ...extra,
    });

  beforeAll(async () => {
    chain = await startScriptableTestChain();
    database = await freshDatabase(dialect);
    // 2030-01-01: 2 transactions; 2030-01-02: 1 (at 23:59); 2030-01-03: an empty block;
    // 2030-01-04: none; 2030-01-05: 3.
    await chain.send(1n, at(1, 8));
    await chain.send(1n, at(1, 9));
    await chain.send(1n, at(2, 23, 59));
    await chain.call('evm_setNextBlockTimestamp', [at(3)]);
    await chain.mine(1);
    for (const minute of [0, 1, 2]) await chain.send(1n, at(5, 0, minute));
    api = await start();
  });

  afterAll(async () => {
    await api?.close();
    await database?.drop();
    await chain?.stop();
  });

  it('counts transactions per UTC day, listing every day of the range (to inclusive)', async () => {
    await api.app.indexer?.catchUp();
    const result = await stats(api, '2029-12-31', '2030-01-06');
    expect(result).toEqual({
      count: 6,
      daily: [
        { date: '2029-12-31', count: 0 },
        { date: '2030-01-01', count: 2 },
        { date: '2030-01-02', count: 1 },
        { date: '2030-01-03', count: 0 },
        { date: '2030-01-04', count: 0 },
        { date: '2030-01-05', count: 3 },
        { date: '2030-01-06', count: 0 },
      ],
    });
    expect(await stats(api, '2030-01-02', '2030-01-02')).toEqual({
      count: 1,
      daily: [{ date: '2030-01-02', count: 1 }],
    });
  });

  it.each<[string, unknown]>([
    ['a range over STATS_MAX_DAYS', [{ from: '2030-01-01', to: '2030-02-01' }]],
    ['to before from', [{ from: '2030-01-02', to: '2030-01-01' }]],
    ['a date that does not exist', [{ from: '2030-02-30', to: '2030-03-01' }]],
    ['a date in another format', [{ from: '01/01/2030', to: '2030-01-02' }]],
    ['a missing to', [{ from: '2030-01-01' }]],
    ['no params', []],
  ])('refuses %s with -32602', async (_what, params) => {
    const answer = await api.call('getTransactionStats', params);
    expect(answer.error?.code).toBe(-32602);
  });

  it('accepts a range of exactly STATS_MAX_DAYS days', async () => {
    const result = await stats(api, '2030-01-01', '2030-01-31');
    expect(result.daily).toHaveLength(31);
    expect(result.count).toBe(6);
  });

  it('drops the transactions of blocks a reorg removed (longer new chain)', async () => {
    const snapshot = await chain.call<string>('evm_snapshot');
    await chain.send(1n, at(7, 1));
    await chain.send(1n, at(7, 2));
    await api.app.indexer?.catchUp();
    expect(daily(await stats(api, '2030-01-07', '2030-01-08'))).toEqual({
      '2030-01-07': 2,
      '2030-01-08': 0,
    });

    expect(await chain.call('evm_revert', [snapshot])).toBe(true);
    await chain.send(1n, at(8, 1));
    await chain.mine(3);
    expect(await api.app.indexer?.step()).toMatchObject({ state: 'rolled-back', removed: 2 });
    await api.app.indexer?.catchUp();
    expect(daily(await stats(api, '2030-01-07', '2030-01-08'))).toEqual({
      '2030-01-07': 0,
      '2030-01-08': 1,
    });
    const tip = await api.app.indexStore.tip();
    const head = await chain.call<{ hash: string; number: string }>('eth_getBlockByNumber', [
      'latest',
      false,
    ]);
    expect(tip).toEqual({ number: Number(head.number), hash: head.hash });
  });

  it('drops them too when the new chain is no longer than the old one', async () => {
    const snapshot = await chain.call<string>('evm_snapshot');
    await chain.send(1n, at(9, 1));
    await api.app.indexer?.catchUp();
    expect(daily(await stats(api, '2030-01-09', '2030-01-09'))).toEqual({ '2030-01-09': 1 });

    await chain.call('evm_revert', [snapshot]);
    await chain.call('evm_setNextBlockTimestamp', [at(10)]);
    await chain.mine(1);
    expect(await api.app.indexer?.step()).toMatchObject({ state: 'rolled-back', removed: 1 });
    await api.app.indexer?.catchUp();
    expect(daily(await stats(api, '2030-01-09', '2030-01-10'))).toEqual({
      '2030-01-09': 0,
      '2030-01-10': 0,
    });
    expect((await api.app.indexStore.tip())?.hash).toBe(
      (await chain.call<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).hash,
    );
  });

  it('resumes from the last indexed block after a restart', async () => {
    const before = await api.app.indexStore.tip();
    await api.close();
    await chain.send(1n, at(11, 1));
    await chain.send(1n, at(11, 2));

    const spy = countingChain(createChainClient({ rpcUrl: chain.url }));
    api = await start({ chain: spy });
    await api.app.indexer?.catchUp();
    expect(daily(await stats(api, '2030-01-11', '2030-01-11'))).toEqual({ '2030-01-11': 2 });
    expect(await api.app.indexStore.tip()).toMatchObject({ number: (before?.number ?? 0) + 2 });
    // Nothing below the old tip was fetched again (block 0 is the one check that the stored
    // index belongs to this chain).
    const refetched = spy.calls.filter(
      (c) =>
        c.method === 'eth_getBlockByNumber' &&
        typeof c.params[0] === 'string' &&
        Number(c.params[0]) > 0 &&
        Number(c.params[0]) < (before?.number ?? 0),
    );
    expect(refetched).toEqual([]);
    expect(daily(await stats(api, '2030-01-01', '2030-01-05'))).toMatchObject({
      '2030-01-01': 2,
      '2030-01-05': 3,
    });
  });

  it('keeps indexing by itself once started, and only one replica writes', async () => {
    const other = await start({ autoStartIndexer: true });
    try {
      // `api` holds the lease (it indexed last): the other replica stands by.
      expect(await other.app.indexer?.step()).toEqual({ state: 'standby' });
      await api.close(); // releases the lease
      await chain.send(1n, at(12, 1));
      const counted = async () => (await stats(other, '2030-01-12', '2030-01-12')).count;
      await waitFor(async () => (await counted()) >= 1, {
        what: 'the other replica indexed the transfer',
        timeoutMs: 20_000,
      });
      expect(await counted()).toBe(1);
    } finally {
      await other.close();
      api = await start();
    }
  });
});
