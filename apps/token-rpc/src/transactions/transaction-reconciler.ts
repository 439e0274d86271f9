import { parseQuantity, type ChainClient } from '@itp/chain';
import type { Logger } from '@itp/service-kit';
import {
  isPendingStatus,
  type Settlement,
  type TransactionEntry,
  type TransactionLog,
} from './transaction-log.js';

export interface TransactionReconcilerOptions {
  log: TransactionLog;
  chain: ChainClient;
  logger: Logger;
  /** Time between two runs (the first runs right after start); 0: no timer. */
  intervalMs: number;
  /**
   * A record changed less than this long ago is left alone: the request that sends it is still
   * writing its outcome.
   */
  graceMs: number;
  /** Records read per query (default 100). */
  pageSize?: number;
  /** At most this many records per run (default 1000); the next run goes on with the rest. */
  maxPerRun?: number;
  now?: () => number;
}

export interface ReconcileSummary {
  /** Records looked at. */
  checked: number;
  mined: number;
  failed: number;
  dropped: number;
  /** Still pending on the chain (nonce not used yet): left as they are. */
  pending: number;
  /** Settled by someone else (another replica, the sending request) between read and update. */
  lost: number;
}

interface Receipt {
  status?: string;
  blockNumber?: string | null;
}

const EMPTY_SUMMARY: ReconcileSummary = {
  checked: 0,
  mined: 0,
  failed: 0,
  dropped: 0,
  pending: 0,
  lost: 0,
};

/**
 * Settles every transaction record that is not final (sending, sent, unknown) against the chain
 * (ADR 0011): a receipt → `mined` (status 1) or `failed` (status 0, reverted), with its block
 * number; no receipt and the sender's mined nonce already past the transaction's → `dropped` (the
 * nonce went to another transaction, so this one can never be mined); otherwise it is still pending
 * and left for a later run. Runs right after start and then every `intervalMs`; each replica runs
 * its own, and every change is a conditional UPDATE on the old status, so running it twice (or on
 * two replicas at once) changes each record once.
 */
export class TransactionReconciler {
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(private readonly options: TransactionReconcilerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts the timer: a first run at once, then one every intervalMs (never two at a time). */
  start(): void {
    if (this.options.intervalMs <= 0 || this.stopped || this.timer || this.running) return;
    this.schedule(0);
  }

  /** Stops the timer and waits for a run in progress (shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass over the records that are not final. Throws when the database or chain fails. */
  async reconcileOnce(): Promise<ReconcileSummary> {
    const summary = { ...EMPTY_SUMMARY };
    const pageSize = this.options.pageSize ?? 100;
    const maxPerRun = this.options.maxPerRun ?? 1000;
    const updatedBefore = this.now() - this.options.graceMs;
    const minedNonces = new Map<string, number>();
    let after: { createdAt: number; hash: string } | undefined;
    while (summary.checked < maxPerRun && !this.stopped) {
      const page = await this.options.log.listPending({
        updatedBefore,
        limit: Math.min(pageSize, maxPerRun - summary.checked),
        after,
      });
      for (const entry of page) {
        if (this.stopped) break;
        const previous = entry.status;
        if (!isPendingStatus(previous)) continue;
        summary.checked += 1;
        const settlement = await this.settlementOf(entry, minedNonces);
        if (!settlement) {
          summary.pending += 1;
          continue;
        }
        if (await this.options.log.settle(entry.hash, previous, settlement)) {
          summary[settlement.status] += 1;
          this.options.logger.info(
            {
              hash: entry.hash,
              kind: entry.kind,
              from: entry.from,
              nonce: entry.nonce,
              previous,
              status: settlement.status,
              blockNumber: settlement.blockNumber,
            },
            'transaction settled',
          );
        } else {
          summary.lost += 1;
        }
      }
      const last = page[page.length - 1];
      if (!last || page.length < pageSize) break;
      after = { createdAt: last.createdAt, hash: last.hash };
    }
    return summary;
  }

  /**
   * getTransactionStatus asks here for a record that is not final: when the node has its receipt,
   * the record is settled now (mined or failed, the same conditional UPDATE as a run) instead of
   * at the next run; otherwise, or when the chain or database cannot say, the record is answered
   * as stored. "dropped" is left to the runs (it needs the grace time and the nonce).
   */
  async settleIfMined(entry: TransactionEntry): Promise<TransactionEntry> {
    if (!isPendingStatus(entry.status)) return entry;
    try {
      const settlement = await this.receiptOf(entry.hash);
      if (!settlement) return entry;
      await this.options.log.settle(entry.hash, entry.status, settlement);
      return (await this.options.log.find(entry.hash)) ?? entry;
    } catch (err) {
      this.options.logger.debug({ err, hash: entry.hash }, 'could not settle on read');
      return entry;
    }
  }

  private async settlementOf(
    entry: TransactionEntry,
    minedNonces: Map<string, number>,
  ): Promise<Settlement | null> {
    const mined = await this.receiptOf(entry.hash);
    if (mined) return mined;
    let nonce = minedNonces.get(entry.from);
    if (nonce === undefined) {
      const count = await this.options.chain.request('eth_getTransactionCount', [
        entry.from,
        'latest',
      ]);
      nonce = parseQuantity(count, 'eth_getTransactionCount');
      minedNonces.set(entry.from, nonce);
    }
    if (nonce <= entry.nonce) return null;
    // The nonce is used. Ask once more: the receipt may have appeared since the first question.
    const late = await this.receiptOf(entry.hash);
    if (late) return late;
    return {
      status: 'dropped',
      blockNumber: null,
      error: `never mined: nonce ${entry.nonce} of ${entry.from} was used by another transaction`,
    };
  }

  private async receiptOf(hash: string): Promise<Settlement | null> {
    const receipt = await this.options.chain.request<Receipt | null>('eth_getTransactionReceipt', [
      hash,
    ]);
    if (!receipt || typeof receipt.blockNumber !== 'string') return null;
    const blockNumber = parseQuantity(receipt.blockNumber, 'eth_getTransactionReceipt');
    if (receipt.status === '0x1') return { status: 'mined', blockNumber, error: null };
    return { status: 'failed', blockNumber, error: 'reverted on chain (receipt status 0)' };
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.runLogged().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.schedule(this.options.intervalMs);
      });
    }, delayMs);
    // The timer never keeps the process alive; shutdown stops it (app.ts registers stop()).
    this.timer.unref();
  }

  private async runLogged(): Promise<void> {
    try {
      const summary = await this.reconcileOnce();
      if (summary.checked > 0) {
        this.options.logger.debug({ ...summary }, 'transaction reconciliation run');
      }
    } catch (err) {
      // The database or the chain node is down: the next run tries again.
      this.options.logger.warn({ err }, 'transaction reconciliation run failed; retrying later');
    }
  }
}
