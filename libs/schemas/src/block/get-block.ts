import { z } from 'zod';
import { blockRecordSchema } from './block-record.js';
import { blockSelectorSchema } from './block-selector.js';
import { answerOptionsSchema, nodeBlockSchema } from './node-format.js';

/**
 * getBlock params: `[]` (latest), `[block]`, `[block, fullTransactions]` or
 * `[block, fullTransactions, { format }]` (node-format.ts).
 */
export const getBlockParamsSchema = z
  .tuple([
    blockSelectorSchema.optional().meta({
      title: 'block',
      description:
        'block number (integer or 0x-hex), tag (latest, earliest, pending, safe, finalized) or 0x block hash; default latest',
    }),
    z.boolean().optional().meta({
      title: 'fullTransactions',
      description: 'true: transaction records; false (default): transaction hashes',
    }),
    answerOptionsSchema.optional(),
  ])
  .meta({ title: 'GetBlockParams' });
export type GetBlockParams = z.infer<typeof getBlockParamsSchema>;

/** The block record (default), or the node's block with `{ format: "node" }`. */
export const getBlockResultSchema = z.union([blockRecordSchema, nodeBlockSchema]);
export type GetBlockResult = z.infer<typeof getBlockResultSchema>;
