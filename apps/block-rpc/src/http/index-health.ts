import { Router } from 'express';
import type { BlockIndexer, IndexerStatus } from '../indexer/block-indexer.js';

/** What GET /health/index answers when this replica runs no indexer (BLOCK_INDEX_ENABLED=false). */
export const INDEXER_DISABLED = { status: 'ok', state: 'disabled' } as const;

/**
 * GET /health/index: this replica's transaction indexer (IndexerStatus), always HTTP 200. A
 * stalled indexer is `status: "degraded"` with a `detail`, not a readiness failure: blocks,
 * transactions and receipts are still answered (from the node), only getTransactionStats falls
 * behind, and every replica shares the one index, so taking replicas out of rotation would not
 * help. The readiness report of service-kit has no place for the detail of a passing check, hence
 * this route beside /health/ready (and the block_index_stalled gauge).
 */
export function indexHealthRouter(indexer: BlockIndexer | undefined): Router {
  const router = Router();
  router.get('/health/index', (_req, res) => {
    const body: IndexerStatus | typeof INDEXER_DISABLED = indexer?.status() ?? INDEXER_DISABLED;
    res.json(body);
  });
  return router;
}
