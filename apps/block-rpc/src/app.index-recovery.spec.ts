/**
 * The transaction index on chains it cannot simply follow, with real anvil nodes restarted at the
 * same URL under a running block API: a node that now serves another chain (the index is built
 * again, once), and a node whose own chain does not link (said once, then resumed when repaired).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { GetTransactionStatsResult } from '@itp/schemas';
import { createChainClient } from '@itp/chain';
import {
  createTestDatabase,
  waitFor,
  freePort,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import type { IndexerStatus } from './indexer/block-indexer.js';
import { countingChain, type CountingChain } from './testing/counting-chain.js';
import { startScriptableTestChain, type TestChain } from './testing/dev-chain.js';
import { startHarness, type Harness } from './testing/harness.js';
import { captureLogs, type LogCapture } from './testing/log-capture.js';

/** Seconds of a UTC day of 2030 (month 1-12) at noon plus `minute`. */
const at = (month: number, day: number, minute = 0) =>
  Date.UTC(2030, month - 1, day, 12, minute) / 1000;

const STALLED = 'transaction index stalled';
const REPLACED = 'the chain was replaced';
const RESUMED = 'transaction index resumed';
const ROLLED_BACK = 'transaction index rolled back';

async function stats(api: Harness, day: string): Promise<number> {
  return (
    await api.data<GetTransactionStatsResult>('getTransactionStats', [{ from: day, to: day }])
  ).count;
}

async function indexHealth(api: Harness): Promise<{ http: number; body: IndexerStatus }> {
  const res = await fetch(`${api.url}/health/index`);
  return { http: res.status, body: (await res.json()) as IndexerStatus };
}

async function metric(api: Harness, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${api.metricsUrl}/metrics`)).text();
  // `name{service="block-rpc"} value` (the registry's default label)
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('the transaction index when the chain changes under it', () => {
  let db: TestDatabase;
  let api: Harness | undefined;
  const chains: TestChain[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'block-rpc-index-'));

  const start = async (
    chainUrl: string,
    logs: LogCapture,
    autoStartIndexer: boolean,
    chain?: CountingChain,
    pollMs = 50,
  ) => {
    api = await startHarness({
      chainUrl,
      ...(chain ? { chain } : {}),
      databaseUrl: db.url,
      redisUrl: testRedisUrl(),
      keyPrefix: uniquePrefix('block-index-recovery'),
      env: { BLOCK_FINALITY_DEPTH: '64', BLOCK_INDEX_POLL_MS: String(pollMs) },
      logger: logs.logger,
      autoStartIndexer,
    });
    return api;
  };
  const chainAt = async (options: Parameters<typeof startScriptableTestChain>[0]) => {
    const chain = await startScriptableTestChain(options);
    chains.push(chain);
    return chain;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await api?.close();
    api = undefined;
    for (const chain of chains.splice(0)) await chain.stop();
    await db.drop();
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('clears the index once and builds it again when the node serves another chain', async () => {
    const port = await freePort();
    const first = await chainAt({ port });
    await first.send(1n, at(2, 1, 0));
    await first.send(1n, at(2, 1, 1));
    const logs = captureLogs();
    const running = await start(first.url, logs, false);
    await running.app.indexer?.catchUp();
    expect(await stats(running, '2030-02-01')).toBe(2);

    // Another chain at the same URL: another genesis block (its timestamp), three transactions.
    const genesis = await first.call<{ timestamp: string }>('eth_getBlockByNumber', ['0x0', false]);
    await first.stop();
    const second = await chainAt({
      port,
      args: ['--timestamp', String(Number(genesis.timestamp) + 7)],
    });
    for (const minute of [0, 1, 2]) await second.send(1n, at(2, 2, minute));

    expect(await running.app.indexer?.catchUp()).toEqual({ state: 'caught-up', head: 3 });
    expect(logs.matching(REPLACED)).toHaveLength(1);
    expect(logs.matching(REPLACED)[0]).toMatchObject({ level: 40, block: 0, removed: 3 });
    expect(logs.matching(ROLLED_BACK)).toEqual([]);
    expect(await stats(running, '2030-02-01')).toBe(0);
    expect(await stats(running, '2030-02-02')).toBe(3);
    expect(await metric(running, 'block_index_resets_total')).toBe(1);
    expect(await metric(running, 'block_index_stalled')).toBe(0);
    const health = await indexHealth(running);
    expect(health.http).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      state: 'following',
      resets: 1,
      lastReset: { block: 0, removed: 3 },
    });
    expect(health.body.detail).toBeUndefined();
  });

  it('says once that it cannot follow a chain that does not link, and resumes once it does', async () => {
    // A chain of two transactions saved by anvil, and a copy of its state file in which a
    // second genesis block comes last: what anvil's own restarts used to leave (libs/dev-chain
    // now removes such blocks before anvil loads a file). anvil then serves that block as block
    // 0, while block 1 names the first one as its parent.
    const stateFile = join(dir, 'state.json');
    const saved = await startScriptableTestChain({ stateFile });
    await saved.send(1n, at(3, 1, 0));
    await saved.send(1n, at(3, 1, 1));
    await saved.stop();
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as {
      blocks: Array<{ header: { number: string; timestamp: string } }>;
    };
    const genesis = state.blocks.find((b) => Number(b.header.number) === 0);
    if (!genesis) throw new Error('no genesis block in the saved state');
    const stray = { ...genesis, header: { ...genesis.header, timestamp: '0x1' } };
    const brokenFile = join(dir, 'broken.json');
    writeFileSync(brokenFile, JSON.stringify({ ...state, blocks: [...state.blocks, stray] }));

    const port = await freePort();
    const broken = await chainAt({ port, args: ['--load-state', brokenFile] });
    const block0 = await broken.call<{ hash: string }>('eth_getBlockByNumber', ['0x0', false]);
    const block1 = await broken.call<{ parentHash: string }>('eth_getBlockByNumber', [
      '0x1',
      false,
    ]);
    expect(block1.parentHash).not.toBe(block0.hash);

    const logs = captureLogs();
    const spy = countingChain(createChainClient({ rpcUrl: broken.url }));
    const running = await start(broken.url, logs, true, spy, 10); // polling every 10 ms
    await waitFor(() => running.app.indexer?.status().state === 'stalled', {
      what: 'stalled',
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    // Twenty polls more (each step asks for the head once), still stalled: said only once.
    const polls = spy.count('eth_blockNumber');
    await waitFor(() => spy.count('eth_blockNumber') >= polls + 20, {
      what: 'twenty polls more',
      timeoutMs: 20_000,
    });
    expect(logs.matching(STALLED)).toHaveLength(1);
    expect(logs.matching(STALLED)[0]).toMatchObject({
      level: 50,
      block: 1,
      parentHash: block1.parentHash,
      hashBelow: block0.hash,
    });
    expect(logs.matching(ROLLED_BACK)).toEqual([]);
    expect(await metric(running, 'block_index_stalled')).toBe(1);
    const ready = await fetch(`${running.url}/health/ready`);
    expect(ready.status).toBe(200); // the block API still answers
    const health = await indexHealth(running);
    expect(health.http).toBe(200);
    expect(health.body).toMatchObject({
      status: 'degraded',
      state: 'stalled',
      stalledAt: { block: 1 },
      resets: 0,
    });
    expect(health.body.detail).toContain("the node's block 1 names");
    expect(await running.data('getBlockNumber')).toBe(2);
    expect(await stats(running, '2030-03-01')).toBe(0);

    // The same chain served consistently (its state file settled, as the dev stack does).
    await broken.stop();
    await chainAt({ port, stateFile });
    await waitFor(async () => (await stats(running, '2030-03-01')) === 2, {
      what: 'counted',
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    expect(logs.matching(REPLACED)).toHaveLength(1); // the indexed block 0 was the stray one
    expect(logs.matching(RESUMED)).toHaveLength(1);
    expect(logs.matching(STALLED)).toHaveLength(1);
    expect(await metric(running, 'block_index_stalled')).toBe(0);
    expect((await indexHealth(running)).body).toMatchObject({
      status: 'ok',
      state: 'following',
      resets: 1,
    });
  });
});
