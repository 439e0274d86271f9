import { randomUUID } from 'node:crypto';
import { parseQuantity, type ChainClient } from '@itp/chain';
import type { Logger } from '@itp/service-kit';
import { toQuantity } from '../chain/hex.js';
import { LeaseLostError } from './lease-lost-error.js';
import type { BlockIndexStore, BlockRef, IndexedBlock, LeaseHolder } from './block-index-store.js';
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
  | { state: 'rolled-back'; keptThrough: number; removed: number }
  /** The indexed blocks are not on the node's chain at all (another chain): all removed. */
  | { state: 'reset'; block: number; removed: number }
  /**
   * The node's block `block` does not link to its block `block` − 1, which is indexed: the index
   * cannot go on. `reported` once the same broken link was seen in two steps in a row.
   */
  | { state: 'stalled'; block: number; head: number; reported: boolean };

/** This replica's indexer, as GET /health/index shows it. */
export interface IndexerStatus {
  /** 'degraded' while stalled: the block API answers, getTransactionStats lags ever more. */
  status: 'ok' | 'degraded';
  /** following: indexing or caught up; standby: another replica holds the lease. */
  state: 'starting' | 'following' | 'standby' | 'stalled' | 'stopped';
  /** Why it is degraded, for a person. */
  detail?: string;
  /** While stalled: the node's block that does not link to the indexed one below it. */
  stalledAt?: { block: number; since: string };
  /** Times this replica cleared the index because the chain was replaced, and the last one. */
  resets: number;
  lastReset?: { at: string; block: number; removed: number };
}

/** The node's block `block` names `parentHash`, but its block `block` − 1 is `hashBelow`. */
interface BrokenLink {
  block: number;
  parentHash: string;
  hashBelow: string;
}

const linkKey = (link: BrokenLink): string => `${link.block}:${link.parentHash}:${link.hashBelow}`;

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
 * - Another chain: when the lowest indexed block is not the node's block at that height (checked
 *   at start and before every roll-back), the node serves another chain (a dev chain started
 *   afresh, another network): the index is cleared and built again from startBlock, with one log
 *   line (state 'reset', block_index_resets_total).
 * - A chain that cannot be followed: when the node's own block N+1 does not name the node's block
 *   N (which is indexed) as its parent, no roll-back can help. Seen in two steps in a row, this is
 *   said once (an error log line, block_index_stalled = 1, status 'degraded' with a detail) and
 *   then checked quietly at every poll; once the node's chain links again indexing resumes (one
 *   log line). Seen with anvil before libs/dev-chain settled its state file: block 0 changed at
 *   every restart while block 1 kept the first genesis as its parent.
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
  private state: IndexerStatus['state'] = 'starting';
  /** A broken link seen once (reported when the next step sees it again). */
  private suspect: string | undefined;
  private stall: { key: string; block: number; since: string; detail: string } | undefined;
  private resets = 0;
  private lastReset: IndexerStatus['lastReset'];

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
    this.state = 'stopped';
  }

  /** What this replica's indexer is doing (GET /health/index). */
  status(): IndexerStatus {
    return {
      status: this.stall ? 'degraded' : 'ok',
      state: this.state,
      ...(this.stall
        ? {
            detail: this.stall.detail,
            stalledAt: { block: this.stall.block, since: this.stall.since },
          }
        : {}),
      resets: this.resets,
      ...(this.lastReset ? { lastReset: this.lastReset } : {}),
    };
  }

  /**
   * Steps until the index has reached the head, another replica holds the lease, or the chain
   * cannot be followed.
   */
  async catchUp(maxSteps = 100_000): Promise<IndexStep> {
    for (let i = 0; i < maxSteps; i += 1) {
      const step = await this.step();
      if (step.state === 'standby' || step.state === 'caught-up' || step.state === 'stalled') {
        return step;
      }
    }
    throw new Error(`block indexer did not catch up within ${maxSteps} steps`);
  }

  /** One step: index the next batch, roll a reorg back, clear a replaced chain, or check the tip. */
  async step(): Promise<IndexStep> {
    const { store, metrics } = this.options;
    if (!(await store.acquireLease(this.lease()))) return this.standBy();
    metrics.leader(true);
    try {
      const step = await this.advance();
      this.settle(step);
      return step;
    } catch (err) {
      if (err instanceof LeaseLostError) return this.standBy();
      throw err;
    }
  }

  private async advance(): Promise<IndexStep> {
    const { chain, store, metrics } = this.options;
    const head = parseQuantity(await chain.request('eth_blockNumber'), 'eth_blockNumber');
    if (!this.baseChecked) {
      const reset = await this.checkBase();
      this.baseChecked = true;
      if (reset) return reset;
    }
    const tip = await store.tip();
    if (tip && this.stall && tip.number === this.stall.block - 1) {
      // Stalled: look at the two blocks of the broken link only, not at a whole batch.
      const link = await this.linkAbove(tip);
      if (link === 'tip-replaced') return await this.rollBack(tip);
      if (typeof link === 'object') return this.brokenLink(link, head);
    }
    if (tip && tip.number >= head) {
      const onChain = await this.header(tip.number);
      if (!onChain || onChain.hash !== tip.hash) return await this.rollBack(tip);
      metrics.indexed(tip.number);
      return { state: 'caught-up', head };
    }
    const from = tip ? tip.number + 1 : this.options.startBlock;
    if (from > head) return { state: 'caught-up', head };
    const blocks = await this.fetchRange(from, Math.min(head, from + this.options.batchSize - 1));
    const last = blocks.at(-1);
    if (!last) return { state: 'caught-up', head };
    if ((await store.append(this.lease(), blocks)) === 'reorg') {
      // Block `from` does not name the indexed tip as its parent: a reorg below, or a node whose
      // chain does not link.
      const link = tip ? await this.linkAbove(tip) : 'tip-replaced';
      if (link === 'tip-replaced') return await this.rollBack(tip);
      if (typeof link === 'object') return this.brokenLink(link, head);
      return { state: 'rolled-back', keptThrough: from - 1, removed: 0 }; // it moved: look again
    }
    metrics.indexed(last.number);
    return { state: 'indexed', from, to: last.number, head };
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const running = this.step().then(
        (step) => (step.state === 'indexed' || step.state === 'reset' ? 0 : this.options.pollMs),
        (err: unknown) => {
          this.options.logger.warn({ err }, 'block indexer step failed; retrying');
          return this.options.pollMs;
        },
      );
      this.current = running;
      void running.then((next) => this.schedule(next));
    }, delayMs);
  }

  /** Another replica holds the lease: it indexes, and says so itself should the chain stall. */
  private standBy(): IndexStep {
    this.options.metrics.leader(false);
    this.suspect = undefined;
    if (this.stall) {
      this.stall = undefined;
      this.options.metrics.stalled(false);
    }
    this.state = 'standby';
    return { state: 'standby' };
  }

  /** Records what a step leaves behind: the state, and the end of a stall. */
  private settle(step: IndexStep): void {
    if (step.state === 'stalled') {
      // A link seen broken once is only suspected; a reported stall stays until progress.
      this.state = step.reported || this.stall ? 'stalled' : 'following';
      return;
    }
    this.state = 'following';
    this.suspect = undefined;
    if (this.stall) {
      this.options.logger.info(
        { block: this.stall.block },
        'the chain links again: transaction index resumed',
      );
      this.stall = undefined;
      this.options.metrics.stalled(false);
    }
  }

  /**
   * Whether the node's block above the indexed tip names the tip as its parent: 'tip-replaced'
   * when the tip itself is no longer the node's block at its height (a reorg), 'links' when it
   * does (or there is no block above yet), else the broken link.
   */
  private async linkAbove(tip: BlockRef): Promise<'tip-replaced' | 'links' | BrokenLink> {
    const [below, above] = await Promise.all([
      this.header(tip.number),
      this.header(tip.number + 1),
    ]);
    if (below?.hash !== tip.hash) return 'tip-replaced';
    if (!above || above.parentHash === below.hash) return 'links';
    return { block: above.number, parentHash: above.parentHash, hashBelow: below.hash };
  }

  /** A broken link seen: suspected the first time, reported (once) when seen again. */
  private brokenLink(link: BrokenLink, head: number): IndexStep {
    const key = linkKey(link);
    const stalled = { state: 'stalled', block: link.block, head } as const;
    if (this.stall?.key === key) return { ...stalled, reported: true };
    if (this.suspect !== key) {
      this.suspect = key;
      this.options.logger.debug(link, 'block does not link to the one below it; looking again');
      return { ...stalled, reported: false };
    }
    this.suspect = undefined;
    const below = link.block - 1;
    const detail =
      `the node's block ${link.block} names ${link.parentHash} as its parent, but the node's ` +
      `block ${below} is ${link.hashBelow}: its chain does not link there, so the transaction ` +
      `index stops at block ${below} until it does` +
      (link.block === 1
        ? ' (seen with a dev chain, anvil --state, that made itself a new genesis block at a ' +
          'restart: the dev stack repairs its state file when it starts it)'
        : '');
    this.stall = { key, block: link.block, since: new Date(this.now()).toISOString(), detail };
    this.options.metrics.stalled(true);
    this.options.logger.error(
      { ...link, detail },
      'the chain cannot be followed: transaction index stalled',
    );
    return { ...stalled, reported: true };
  }

  /**
   * Walks back from the stored tip to the highest block whose stored hash is the chain's, and
   * deletes everything above it. When even the lowest indexed block is not the chain's, the
   * chain was replaced: everything is deleted (reset).
   */
  private async rollBack(tip: BlockRef | undefined): Promise<IndexStep> {
    const { store, metrics, logger } = this.options;
    const lowest = await store.lowest();
    if (!lowest || !tip) return { state: 'rolled-back', keptThrough: -1, removed: 0 };
    const base = await this.header(lowest.number);
    if (base?.hash !== lowest.hash) return this.reset(lowest, base);
    let keptThrough = lowest.number;
    for (let n = tip.number; n > lowest.number; n -= 1) {
      const [stored, onChain] = await Promise.all([store.hashAt(n), this.header(n)]);
      if (stored !== undefined && onChain?.hash === stored) {
        keptThrough = n;
        break;
      }
    }
    const removed = await store.deleteAbove(this.lease(), keptThrough);
    if (removed > 0) {
      metrics.reorg(removed);
      logger.warn({ keptThrough, removed }, 'chain reorganised: transaction index rolled back');
    }
    return { state: 'rolled-back', keptThrough, removed };
  }

  /** At the first step: clears the index when its lowest block is not on this chain. */
  private async checkBase(): Promise<IndexStep | undefined> {
    const lowest = await this.options.store.lowest();
    if (!lowest) return undefined;
    const onChain = await this.header(lowest.number);
    return onChain?.hash === lowest.hash ? undefined : this.reset(lowest, onChain);
  }

  /** The node serves another chain than the indexed one: clear the index, build it again. */
  private async reset(lowest: BlockRef, onChain: IndexedBlock | null): Promise<IndexStep> {
    const { store, metrics, logger, startBlock } = this.options;
    const removed = await store.deleteAbove(this.lease(), -1);
    metrics.reset(removed);
    this.resets += 1;
    this.lastReset = { at: new Date(this.now()).toISOString(), block: lowest.number, removed };
    logger.warn(
      {
        block: lowest.number,
        indexedHash: lowest.hash,
        chainHash: onChain?.hash ?? null,
        removed,
      },
      `the chain was replaced (its block ${lowest.number} is not the indexed one): ` +
        `transaction index cleared, indexing again from block ${startBlock}`,
    );
    return { state: 'reset', block: lowest.number, removed };
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
