import { randomUUID } from 'node:crypto';
import { parseQuantity, type ChainClient } from '@itp/chain';
import type { Logger } from '@itp/service-kit';
import { toQuantity } from '../chain/hex.js';
import { LeaseLostError } from '../errors.js';
import type { BlockIndexStore, IndexedBlock, LeaseHolder } from './block-index-store.js';
import type { IndexMetrics } from './index-metrics.js';
import { mapIndexedBlock } from './map-indexed-block.js';

export interface BlockIndexerOptions {
  chain: ChainClient;
  store: BlockIndexStore;
  logger: Logger;
  metrics: IndexMetrics;
  /** Pause between polls of the head once caught up (ms). */
  pollMs: number;
  /** First block of an empty index. */
  startBlock: number;
  /** Most blocks fetched and written per step. */
  batchSize: number;
  /** How long the lease lasts without renewal (ms). */
  leaseMs: number;
  /** Parallel node requests while catching up. */
  concurrency?: number;
  /** This replica's lease holder id (default: a random UUID). */
  holder?: string;
  now?: () => number;
}

/** What one step did. */
export type IndexStep =
  | { state: 'standby' }
  | { state: 'caught-up'; head: number }
  | { state: 'indexed'; from: number; to: number; head: number }
  | { state: 'rolled-back'; keptThrough: number; removed: number };

/**
 * Follows the chain head and records every block (number, hash, parent hash, timestamp, UTC day,
 * transaction count) in SQL, for getTransactionStats.
 *
 * - Resumes after a restart from the highest stored block; an empty index starts at startBlock.
 * - Catches up in batches of batchSize blocks, polling again at once while behind.
 * - Reorgs: before block N+1 is stored its parentHash must equal the stored hash of N (checked in
 *   the write transaction); once caught up the stored tip is compared with the chain's block at
 *   that height. On a mismatch it walks back from the tip until the stored hash equals the
 *   chain's, deletes everything above, and indexes again from there.
 * - Replicas: only the holder of the SQL lease indexes (the others stand by and take over when it
 *   expires or is released); every write renews the lease in its own transaction, so a replica
 *   that lost it writes nothing.
 */
export class BlockIndexer {
  private readonly holder: string;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<unknown> | undefined;
  private stopped = true;
  private baseChecked = false;

  constructor(private readonly options: BlockIndexerOptions) {
    this.holder = options.holder ?? randomUUID();
    this.now = options.now ?? Date.now;
  }

  /** Starts polling (the first step at once). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops polling, waits for the step in progress, and gives the lease up. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.current;
    try {
      await this.options.store.releaseLease(this.holder);
    } catch (err) {
      this.options.logger.warn({ err }, 'block indexer: could not release the lease');
    }
    this.options.metrics.leader(false);
  }

  /** Steps until the index has reached the head (or another replica holds the lease). */
  async catchUp(maxSteps = 100_000): Promise<IndexStep> {
    for (let i = 0; i < maxSteps; i += 1) {
      const step = await this.step();
      if (step.state === 'standby' || step.state === 'caught-up') return step;
    }
    throw new Error(`block indexer did not catch up within ${maxSteps} steps`);
  }

  /** One step: index the next batch, roll a reorg back, or check the tip. */
  async step(): Promise<IndexStep> {
    const { chain, store, metrics } = this.options;
    if (!(await store.acquireLease(this.lease()))) {
      metrics.leader(false);
      return { state: 'standby' };
    }
    metrics.leader(true);
    try {
      const head = parseQuantity(await chain.request('eth_blockNumber'), 'eth_blockNumber');
      if (!this.baseChecked) {
        await this.checkBase();
        this.baseChecked = true;
      }
      const tip = await store.tip();
      if (tip && tip.number >= head) {
        const onChain = await this.header(tip.number);
        if (!onChain || onChain.hash !== tip.hash) return await this.rollBack();
        metrics.indexed(tip.number);
        return { state: 'caught-up', head };
      }
      const from = tip ? tip.number + 1 : this.options.startBlock;
      if (from > head) return { state: 'caught-up', head };
      const blocks = await this.fetchRange(from, Math.min(head, from + this.options.batchSize - 1));
      const last = blocks.at(-1);
      if (!last) return { state: 'caught-up', head };
      if ((await store.append(this.lease(), blocks)) === 'reorg') return await this.rollBack();
      metrics.indexed(last.number);
      return { state: 'indexed', from, to: last.number, head };
    } catch (err) {
      if (err instanceof LeaseLostError) {
        metrics.leader(false);
        return { state: 'standby' };
      }
      throw err;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const running = this.step().then(
        (step) => (step.state === 'indexed' ? 0 : this.options.pollMs),
        (err: unknown) => {
          this.options.logger.warn({ err }, 'block indexer step failed; retrying');
          return this.options.pollMs;
        },
      );
      this.current = running;
      void running.then((next) => this.schedule(next));
    }, delayMs);
  }

  /**
   * Walks back from the stored tip to the highest block whose stored hash is the chain's, and
   * deletes everything above it.
   */
  private async rollBack(): Promise<IndexStep> {
    const { store, metrics, logger } = this.options;
    const tip = await store.tip();
    const lowest = await store.lowest();
    let keptThrough = (lowest?.number ?? 0) - 1;
    for (let n = tip?.number ?? -1; lowest && n >= lowest.number; n -= 1) {
      const [stored, onChain] = await Promise.all([store.hashAt(n), this.header(n)]);
      if (stored !== undefined && onChain?.hash === stored) {
        keptThrough = n;
        break;
      }
    }
    const removed = await store.deleteAbove(this.lease(), keptThrough);
    metrics.reorg(removed);
    logger.warn({ keptThrough, removed }, 'chain reorganised: transaction index rolled back');
    return { state: 'rolled-back', keptThrough, removed };
  }

  /** Clears the index when its lowest block is not on this chain (another chain, a reset one). */
  private async checkBase(): Promise<void> {
    const { store, logger } = this.options;
    const lowest = await store.lowest();
    if (!lowest) return;
    const onChain = await this.header(lowest.number);
    if (onChain?.hash === lowest.hash) return;
    const removed = await store.deleteAbove(this.lease(), -1);
    logger.warn(
      { block: lowest.number, removed },
      'the indexed blocks are not on this chain: transaction index cleared',
    );
  }

  /** Consecutive blocks from `from` up to `to`; stops early at a missing block or a broken link. */
  private async fetchRange(from: number, to: number): Promise<IndexedBlock[]> {
    const width = this.options.concurrency ?? 8;
    const blocks: IndexedBlock[] = [];
    for (let start = from; start <= to; start += width) {
      const numbers = Array.from({ length: Math.min(width, to - start + 1) }, (_, i) => start + i);
      const fetched = await Promise.all(numbers.map((n) => this.header(n)));
      for (const block of fetched) {
        const previous = blocks.at(-1);
        if (!block || (previous && block.parentHash !== previous.hash)) return blocks;
        blocks.push(block);
      }
    }
    return blocks;
  }

  private async header(n: number): Promise<IndexedBlock | null> {
    const raw = await this.options.chain.request('eth_getBlockByNumber', [toQuantity(n), false]);
    return raw === null ? null : mapIndexedBlock(raw);
  }

  private lease(): LeaseHolder {
    return { holder: this.holder, ttlMs: this.options.leaseMs, now: this.now() };
  }
}
