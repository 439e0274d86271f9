import type { ChainClient } from '@itp/chain';
import { NotFoundError } from '@itp/errors';
import type { TransactionReceipt, TransactionRecord } from '@itp/schemas';
import type { FinalCache } from '../cache/final-cache.js';
import type { TipCache } from '../cache/tip-cache.js';
import type { HeadTracker } from '../chain/head-tracker.js';
import { mapReceipt } from './map-receipt.js';
import { mapTransaction } from './map-transaction.js';
import { shapeKey } from '../cache/record-shape.js';

export interface TransactionServiceDeps {
  chain: ChainClient;
  head: HeadTracker;
  final: FinalCache;
  tip: TipCache;
}

export const transactionKeys = {
  transaction: (hash: string) => shapeKey(`tx:${hash.toLowerCase()}`),
  receipt: (hash: string) => shapeKey(`receipt:${hash.toLowerCase()}`),
};

/**
 * Transactions and receipts from the node, through the caches: those in final blocks are cached
 * for good, pending or recent ones only for the tip TTL, "not found" never.
 */
export class TransactionService {
  constructor(private readonly deps: TransactionServiceDeps) {}

  async getTransaction(hash: string): Promise<TransactionRecord> {
    const found = await this.lookup(transactionKeys.transaction(hash), async () => {
      const raw = await this.deps.chain.request('eth_getTransactionByHash', [hash]);
      return raw === null ? null : mapTransaction(raw);
    });
    if (!found) throw new NotFoundError(`Transaction ${hash} not found`);
    return found;
  }

  /** A pending transaction has no receipt yet: that is "not found" too. */
  async getReceipt(hash: string): Promise<TransactionReceipt> {
    const found = await this.lookup(transactionKeys.receipt(hash), async () => {
      const raw = await this.deps.chain.request('eth_getTransactionReceipt', [hash]);
      return raw === null ? null : mapReceipt(raw);
    });
    if (!found) {
      throw new NotFoundError(
        `Receipt of transaction ${hash} not found (unknown or still pending)`,
      );
    }
    return found;
  }

  private async lookup<T extends { blockNumber: number | null }>(
    key: string,
    load: () => Promise<T | null>,
  ): Promise<T | null> {
    const { final, tip, head } = this.deps;
    const cached = await final.get<T>(key);
    if (cached) return cached;
    const value = await tip.getOrLoad(key, load);
    if (value && value.blockNumber !== null && (await head.isFinal(value.blockNumber))) {
      await final.set(key, value);
    }
    return value;
  }
}
