/**
 * The indexer's decisions on a broken chain, step by step, against a scripted node (plain data:
 * these cases — a node that contradicts itself once, a lease lost while stalled — cannot be made
 * to happen on anvil at will) and a real SQLite index. The same behaviour on real anvil nodes:
 * app.index-recovery.spec.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { ChainClient } from '@itp/chain';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import type { BlockDb } from '../db/block-db.js';
import { BLOCK_RPC_MIGRATION_TABLE, blockRpcMigrations } from '../db/migrations.js';
import { captureLogs, type LogCapture } from '../testing/log-capture.js';
import { freshDatabase, type DialectDatabase } from '../testing/test-databases.js';
import { BlockIndexStore } from './block-index-store.js';
import { BlockIndexer } from './block-indexer.js';
import type { IndexMetrics } from './index-metrics.js';

const hash = (n: number, fork: string) => `0x${fork}${n.toString(16).padStart(63, '0')}`;

interface NodeBlock {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  transactions: string[];
}

/** A node serving `blocks` by number; `answers` may replace one answer (a node that moves). */
class ScriptedNode implements ChainClient {
  blocks: NodeBlock[] = [];
  readonly asked: string[] = [];
  /** Answers for block numbers given once, before `blocks` is consulted. */
  readonly once = new Map<number, NodeBlock>();

  /** Blocks 0..to of fork `fork`, linked, one transaction each from block 1. */
  chain(to: number, fork = 'a'): void {
    this.blocks = Array.from({ length: to + 1 }, (_, n) => block(n, fork, hash(n - 1, fork)));
  }

  async request<T>(method: string, params: unknown[] = []): Promise<T> {
    this.asked.push(method);
    if (method === 'eth_blockNumber') return `0x${(this.blocks.length - 1).toString(16)}` as T;
    const n = Number(params[0]);
    const scripted = this.once.get(n);
    if (scripted) {
      this.once.delete(n);
      return scripted as T;
    }
    return (this.blocks[n] ?? null) as T;
  }
  chainId = async () => 31337;
  ping = async () => undefined;
  close = async () => undefined;
}

function block(n: number, fork: string, parentHash: string): NodeBlock {
  return {
    number: `0x${n.toString(16)}`,
    hash: hash(n, fork),
    parentHash: n === 0 ? `0x${'0'.repeat(64)}` : parentHash,
    timestamp: `0x${(1_900_000_000 + n * 60).toString(16)}`,
    transactions: n === 0 ? [] : [hash(n, 'f')],
  };
}

function recordingMetrics() {
  const seen = { stalled: [] as boolean[], resets: 0 };
  const metrics: IndexMetrics = {
    indexed: () => undefined,
    reorg: () => undefined,
    leader: () => undefined,
    stalled: (flag) => void seen.stalled.push(flag),
    reset: () => void (seen.resets += 1),
  };
  return { metrics, seen };
}

describe('BlockIndexer on a chain that does not link', () => {
  let database: DialectDatabase;
  let sql: SqlDatabase<BlockDb>;
  let store: BlockIndexStore;
  let node: ScriptedNode;
  let logs: LogCapture;
  let clock: number;

  const indexer = (holder: string, metrics: IndexMetrics) =>
    new BlockIndexer({
      chain: node,
      store,
      logger: logs.logger,
      metrics,
      pollMs: 10,
      startBlock: 0,
      batchSize: 100,
      leaseMs: 1_000,
      holder,
      now: () => clock,
    });

  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    sql = openSqlDatabase<BlockDb>(database.url);
    await migrateToLatest(sql, {
      tableName: BLOCK_RPC_MIGRATION_TABLE,
      migrations: blockRpcMigrations,
    });
    store = new BlockIndexStore(sql.db);
  });
  afterAll(async () => {
    await sql?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await sql.db.deleteFrom('block_index').execute();
    await sql.db.deleteFrom('block_index_lease').execute();
    node = new ScriptedNode();
    node.chain(3);
    logs = captureLogs();
    clock = 1_000_000;
  });

  it('does not report a link that was broken in one answer only (the node moved meanwhile)', async () => {
    const { metrics, seen } = recordingMetrics();
    const a = indexer('a', metrics);
    expect(await a.catchUp()).toEqual({ state: 'caught-up', head: 3 });
    node.chain(5);
    node.once.set(4, block(4, 'a', hash(3, 'c'))); // answered once with another parent
    expect(await a.step()).toEqual({ state: 'rolled-back', keptThrough: 3, removed: 0 });
    expect(await a.step()).toMatchObject({ state: 'indexed', from: 4, to: 5 });
    expect(logs.entries.filter((e) => e.level >= 40)).toEqual([]);
    expect(seen.stalled).toEqual([]);
    expect(a.status()).toEqual({ status: 'ok', state: 'following', resets: 0 });
  });

  it('reports a broken link seen twice in a row once, checks it quietly, and says when it resumes', async () => {
    const { metrics, seen } = recordingMetrics();
    const a = indexer('a', metrics);
    node.blocks[2] = block(2, 'a', hash(1, 'c')); // the node's block 2 names another parent
    expect(await a.step()).toMatchObject({ state: 'indexed', from: 0, to: 1 });
    expect(await a.step()).toEqual({ state: 'stalled', block: 2, head: 3, reported: false });
    expect(a.status()).toMatchObject({ status: 'ok', state: 'following' });
    expect(await a.step()).toEqual({ state: 'stalled', block: 2, head: 3, reported: true });
    for (let i = 0; i < 5; i += 1) {
      node.asked.length = 0;
      expect(await a.step()).toEqual({ state: 'stalled', block: 2, head: 3, reported: true });
      // Only the head and the two blocks of the broken link are asked while stalled.
      expect(node.asked).toEqual([
        'eth_blockNumber',
        'eth_getBlockByNumber',
        'eth_getBlockByNumber',
      ]);
    }
    expect(logs.matching('transaction index stalled')).toHaveLength(1);
    expect(logs.matching('transaction index stalled')[0]).toMatchObject({
      level: 50,
      block: 2,
      parentHash: hash(1, 'c'),
      hashBelow: hash(1, 'a'),
    });
    expect(seen.stalled).toEqual([true]);
    expect(a.status()).toMatchObject({
      status: 'degraded',
      state: 'stalled',
      stalledAt: { block: 2, since: new Date(clock).toISOString() },
      detail: expect.stringContaining("the node's block 2 names"),
    });

    node.chain(3); // the node's chain links again
    expect(await a.catchUp()).toEqual({ state: 'caught-up', head: 3 });
    expect(logs.matching('transaction index resumed')).toHaveLength(1);
    expect(seen.stalled).toEqual([true, false]);
    expect(a.status()).toEqual({ status: 'ok', state: 'following', resets: 0 });
    expect(logs.matching('rolled back')).toEqual([]);
  });

  it('hands a stalled index to the replica that takes the lease over', async () => {
    const first = recordingMetrics();
    const a = indexer('a', first.metrics);
    node.blocks[2] = block(2, 'a', hash(1, 'c'));
    await a.catchUp();
    await a.step();
    expect(await a.step()).toMatchObject({ state: 'stalled', reported: true });

    clock += 5_000; // a's lease expired; b takes it and sees the same broken link itself
    const second = recordingMetrics();
    const b = indexer('b', second.metrics);
    expect(await b.step()).toMatchObject({ state: 'stalled', reported: false });
    expect(await a.step()).toEqual({ state: 'standby' });
    expect(first.seen.stalled).toEqual([true, false]);
    expect(a.status()).toEqual({ status: 'ok', state: 'standby', resets: 0 });
    expect(await b.step()).toMatchObject({ state: 'stalled', reported: true });
    expect(logs.matching('transaction index stalled')).toHaveLength(2); // one per replica
  });

  it("clears the index when its lowest block is not the node's, once, at the first step", async () => {
    const { metrics, seen } = recordingMetrics();
    await indexer('a', metrics).catchUp();
    node.chain(4, 'b'); // another chain at the node's URL
    const restarted = indexer('a', metrics);
    expect(await restarted.step()).toEqual({ state: 'reset', block: 0, removed: 4 });
    expect(await restarted.catchUp()).toEqual({ state: 'caught-up', head: 4 });
    expect(await store.tip()).toEqual({ number: 4, hash: hash(4, 'b') });
    expect(seen.resets).toBe(1);
    expect(logs.matching('the chain was replaced')).toHaveLength(1);
    expect(restarted.status()).toMatchObject({
      status: 'ok',
      resets: 1,
      lastReset: { block: 0, removed: 4 },
    });
  });
});
