import { ChainRpcError, type ChainClient } from '@itp/chain';
import { NotFoundError } from '@itp/errors';
import { rawJson, type RawJson } from '@itp/jsonrpc';
import type { BlockRecord } from '@itp/schemas';
import type { CacheView, FinalCache } from '../cache/final-cache.js';
import { SingleFlight } from '../cache/single-flight.js';
import type { TipCache } from '../cache/tip-cache.js';
import type { HeadTracker } from '../chain/head-tracker.js';
import { toQuantity } from '../chain/hex.js';
import { describeSelector, type BlockSelector } from './block-selector.js';
import { mapFullBlock, toHashView, type FullBlockRecord } from './map-block.js';
import { shapeKey } from '../cache/record-shape.js';

export interface BlockServiceDeps {
  chain: ChainClient;
  head: HeadTracker;
  final: FinalCache;
  tip: TipCache;
}

/** Final-cache keys: a final block by hash (the record), and a number → hash pointer. */
export const blockKeys = {
  byHash: (hash: string) => shapeKey(`block:h:${hash.toLowerCase()}`),
  byNumber: (n: number) => shapeKey(`block:n:${n}`),
};

/** The hash-only view of a cached full block, serialised once per cached block. */
const HASH_VIEW: CacheView = {
  name: 'hashes',
  derive: (block: FullBlockRecord) => toHashView(block),
};

/**
 * Blocks from the node, through the caches. The node is always asked for full blocks (transaction
 * objects); the hash-only view is derived. Final blocks (see HeadTracker) are cached for good, by
 * number (canonical blocks only) and by hash; anything else only for the tip TTL.
 */
export class BlockService {
  private readonly flight = new SingleFlight();

  constructor(private readonly deps: BlockServiceDeps) {}

  async getBlock(selector: BlockSelector, full: boolean): Promise<BlockRecord> {
    const block = await this.find(selector);
    if (!block) throw new NotFoundError(`${describeSelector(selector)} not found`);
    return full ? block : toHashView(block);
  }

  /**
   * getBlock's answer: for a final block already in the cache, its JSON serialised once (RawJson,
   * spliced into the JSON-RPC answer as bytes); otherwise the record, as getBlock.
   */
  async getBlockAnswer(selector: BlockSelector, full: boolean): Promise<BlockRecord | RawJson> {
    const text = await this.cachedFinalText(selector, full);
    return text === undefined ? this.getBlock(selector, full) : rawJson(text);
  }

  /**
   * getBlockAnswer's cached text when nothing but process memory is needed: a final block (known
   * final without asking the node) whose entries are in the in-process cache. The cache lookups
   * are then counted as getBlockAnswer counts them; otherwise undefined and nothing counted (the
   * caller then asks getBlockAnswer, which counts its own). The fast path of POST /block.
   */
  async memoryText(selector: BlockSelector, full: boolean): Promise<string | undefined> {
    const { head, final } = this.deps;
    let hash: string | undefined;
    let lookups = 1;
    if (selector.kind === 'hash') hash = selector.hash;
    else if (selector.kind === 'number' && head.isKnownFinal(selector.number)) {
      hash = await final.peek<string>(blockKeys.byNumber(selector.number));
      lookups = 2;
    }
    if (!hash) return undefined;
    const text = await final.peekText(blockKeys.byHash(hash), full ? undefined : HASH_VIEW);
    if (text !== undefined) final.recordMemoryHits(lookups);
    return text;
  }

  private async cachedFinalText(
    selector: BlockSelector,
    full: boolean,
  ): Promise<string | undefined> {
    const { head, final } = this.deps;
    let hash: string | undefined;
    if (selector.kind === 'hash') hash = selector.hash;
    else if (selector.kind === 'number' && (await head.isFinal(selector.number))) {
      hash = await final.get<string>(blockKeys.byNumber(selector.number));
    }
    if (!hash) return undefined;
    return final.getText(blockKeys.byHash(hash), full ? undefined : HASH_VIEW);
  }

  /** The number of the latest block (reused for the tip TTL). */
  latestNumber(): Promise<number> {
    return this.deps.head.latest();
  }

  private find(selector: BlockSelector): Promise<FullBlockRecord | null> {
    switch (selector.kind) {
      case 'number':
        return this.byNumber(selector.number);
      case 'hash':
        return this.byHash(selector.hash);
      case 'tag':
        return this.byTag(selector.tag);
    }
  }

  private async byNumber(n: number): Promise<FullBlockRecord | null> {
    const { head, final, tip } = this.deps;
    if (!(await head.isFinal(n))) {
      return tip.getOrLoad(blockKeys.byNumber(n), () => this.fetch('number', toQuantity(n)));
    }
    const pointer = await final.get<string>(blockKeys.byNumber(n));
    if (pointer) {
      const cached = await final.get<FullBlockRecord>(blockKeys.byHash(pointer));
      if (cached) return cached;
    }
    return this.flight.run(blockKeys.byNumber(n), async () => {
      const block = await this.fetch('number', toQuantity(n));
      if (block) await this.storeCanonical(block);
      return block;
    });
  }

  private async byHash(hash: string): Promise<FullBlockRecord | null> {
    const { head, final, tip } = this.deps;
    const cached = await final.get<FullBlockRecord>(blockKeys.byHash(hash));
    if (cached) return cached;
    const block = await tip.getOrLoad(blockKeys.byHash(hash), () => this.fetch('hash', hash));
    // By hash only: a block found by hash may be off the canonical chain, so it never answers
    // for its number. Its content never changes, but it is kept only once final (then it is
    // certainly not an unsettled tip block).
    if (block?.hash && (await head.isFinal(block.number))) {
      await final.set(blockKeys.byHash(block.hash), block);
    }
    return block;
  }

  private byTag(tag: 'latest' | 'pending' | 'safe' | 'finalized'): Promise<FullBlockRecord | null> {
    return this.deps.tip.getOrLoad(shapeKey(`block:t:${tag}`), async () => {
      let block: FullBlockRecord | null;
      try {
        block = await this.fetch('number', tag);
      } catch (err) {
        // A node without the safe / finalized tags refuses them: that block does not exist here.
        if (err instanceof ChainRpcError && (tag === 'safe' || tag === 'finalized')) return null;
        throw err;
      }
      if (block && tag !== 'pending' && this.deps.head.isKnownFinal(block.number)) {
        await this.storeCanonical(block);
      }
      return block;
    });
  }

  /** Keeps a final block of the canonical chain by hash and by number. */
  private async storeCanonical(block: FullBlockRecord): Promise<void> {
    if (!block.hash) return;
    await this.deps.final.set(blockKeys.byHash(block.hash), block);
    await this.deps.final.set(blockKeys.byNumber(block.number), block.hash);
  }

  private async fetch(by: 'number' | 'hash', arg: string): Promise<FullBlockRecord | null> {
    const method = by === 'number' ? 'eth_getBlockByNumber' : 'eth_getBlockByHash';
    const raw = await this.deps.chain.request(method, [arg, true]);
    return raw === null ? null : mapFullBlock(raw);
  }
}
