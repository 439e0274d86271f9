import { z } from 'zod';
import { blockRecordSchema } from './block-record.js';
import { blockSelectorSchema } from './block-selector.js';

/** getBlock params: `[]` (latest), `[block]` or `[block, fullTransactions]`. */
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
  ])
  .meta({ title: 'GetBlockParams' });
export type GetBlockParams = z.infer<typeof getBlockParamsSchema>;

export const getBlockResultSchema = blockRecordSchema;
export type GetBlockResult = z.infer<typeof getBlockResultSchema>;
