import { ChainRpcError, parseQuantity, type ChainClient } from '@itp/chain';
import type { Logger } from '@itp/service-kit';
import { SingleFlight } from '../cache/single-flight.js';
import { nodeFields } from './node-fields.js';

export interface HeadTrackerOptions {
  chain: ChainClient;
  /** How long an answer of eth_blockNumber / the finalized block is reused (0: not reused). */
  ttlMs: number;
  /** Blocks at least this far below the head count as final. */
  finalityDepth: number;
  logger: Logger;
  now?: () => number;
}

interface Timed {
  value: number;
  at: number;
}

/**
 * Knows the head of the chain (eth_blockNumber, reused for ttlMs) and which blocks can no longer
 * change: number ≤ head − finalityDepth, or ≤ the node's "finalized" block when the node has that
 * tag. The final floor only rises (a reorg deeper than the finality depth is not supported), so a
 * block once known final is known final without asking the node again.
 */
export class HeadTracker {
  private finalFloor = -1;
  private head: Timed | undefined;
  private finalized: Timed | undefined;
  private finalizedTag: 'unknown' | 'supported' | 'unsupported' = 'unknown';
  private readonly flight = new SingleFlight();
  private readonly now: () => number;

  constructor(private readonly options: HeadTrackerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The number of the latest block. */
  async latest(): Promise<number> {
    if (this.head && this.fresh(this.head)) return this.head.value;
    return this.flight.run('head', async () => {
      const value = parseQuantity(
        await this.options.chain.request('eth_blockNumber'),
        'eth_blockNumber',
      );
      this.head = { value, at: this.now() };
      this.raiseFloor(value - this.options.finalityDepth);
      return value;
    });
  }

  /** True when block `n` is known final without asking the node. */
  isKnownFinal(n: number): boolean {
    return n <= this.finalFloor;
  }

  /** Whether block `n` can no longer change (asks the node only when it is not known yet). */
  async isFinal(n: number): Promise<boolean> {
    if (this.isKnownFinal(n)) return true;
    const head = await this.latest();
    if (this.isKnownFinal(n) || n > head) return this.isKnownFinal(n);
    await this.finalizedNumber();
    return this.isKnownFinal(n);
  }

  private async finalizedNumber(): Promise<void> {
    if (this.finalizedTag === 'unsupported') return;
    if (this.finalized && this.fresh(this.finalized)) return;
    await this.flight.run('finalized', async () => {
      try {
        const raw = await this.options.chain.request('eth_getBlockByNumber', ['finalized', false]);
        if (raw === null) {
          this.finalizedTag = 'unsupported';
          return;
        }
        const value = nodeFields(raw, 'block').int('number');
        this.finalizedTag = 'supported';
        this.finalized = { value, at: this.now() };
        this.raiseFloor(value);
      } catch (err) {
        if (!(err instanceof ChainRpcError)) throw err;
        this.finalizedTag = 'unsupported';
        this.options.logger.info(
          { rpcCode: err.rpcCode },
          'the node has no "finalized" block tag; finality by depth only',
        );
      }
    });
  }

  private fresh(timed: Timed): boolean {
    return this.now() - timed.at < this.options.ttlMs;
  }

  private raiseFloor(candidate: number): void {
    if (candidate > this.finalFloor) this.finalFloor = candidate;
  }
}
