import { Counter, Gauge, type Registry } from 'prom-client';

export interface IndexMetrics {
  /** The highest block this replica recorded. */
  indexed(number: number): void;
  reorg(removedBlocks: number): void;
  /** Whether this replica holds the indexer lease. */
  leader(isLeader: boolean): void;
  /** Whether this replica's indexer is stalled on a chain it cannot follow. */
  stalled(isStalled: boolean): void;
  /** The index was cleared because the chain was replaced. */
  reset(removedBlocks: number): void;
}

export interface IndexLagSource {
  /** Head of the chain. */
  head(): Promise<number>;
  /** Highest indexed block (shared SQL, so every replica reports the same), -1 when empty. */
  indexedTip(): Promise<number>;
}

/**
 * Index metrics on the service's registry. `block_index_lag_blocks` (head − highest indexed
 * block) is computed when scraped, on every replica, whether or not it runs the indexer; it keeps
 * its last value when the chain or the database does not answer.
 */
export function createIndexMetrics(registry: Registry, lag: IndexLagSource): IndexMetrics {
  new Gauge({
    name: 'block_index_lag_blocks',
    help: 'Blocks the transaction index is behind the chain head',
    registers: [registry],
    async collect() {
      try {
        const [head, tip] = await Promise.all([lag.head(), lag.indexedTip()]);
        this.set(Math.max(0, head - tip));
      } catch {
        // keep the last value; readiness reports the broken dependency
      }
    },
  });
  const last = new Gauge({
    name: 'block_index_last_block',
    help: 'Highest block number recorded by this replica',
    registers: [registry],
  });
  const leader = new Gauge({
    name: 'block_index_leader',
    help: '1 when this replica holds the indexer lease, else 0',
    registers: [registry],
  });
  const reorgs = new Counter({
    name: 'block_index_reorgs_total',
    help: 'Chain reorganisations the indexer rolled back',
    registers: [registry],
  });
  const removed = new Counter({
    name: 'block_index_reorg_removed_blocks_total',
    help: 'Indexed blocks removed because the chain reorganised',
    registers: [registry],
  });
  const stalled = new Gauge({
    name: 'block_index_stalled',
    help:
      "1 while this replica's indexer is stalled: the node's chain does not link above the " +
      'indexed tip (see GET /health/index), else 0',
    registers: [registry],
  });
  stalled.set(0);
  const resets = new Counter({
    name: 'block_index_resets_total',
    help: 'Times the index was cleared because the node serves another chain (genesis changed)',
    registers: [registry],
  });
  return {
    indexed: (n) => last.set(n),
    reorg: (n) => {
      reorgs.inc();
      removed.inc(n);
    },
    leader: (isLeader) => leader.set(isLeader ? 1 : 0),
    stalled: (isStalled) => stalled.set(isStalled ? 1 : 0),
    reset: () => resets.inc(),
  };
}

export const noIndexMetrics: IndexMetrics = {
  indexed: () => undefined,
  reorg: () => undefined,
  leader: () => undefined,
  stalled: () => undefined,
  reset: () => undefined,
};
