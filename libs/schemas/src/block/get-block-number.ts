import { z } from 'zod';
import { uint } from './primitives.js';

/** getBlockNumber takes no params: `[]` (or params omitted). */
export const getBlockNumberParamsSchema = z.tuple([]).meta({ title: 'GetBlockNumberParams' });
export type GetBlockNumberParams = z.infer<typeof getBlockNumberParamsSchema>;

export const getBlockNumberResultSchema = uint.meta({
  title: 'GetBlockNumberResult',
  description: 'number of the latest block',
});
export type GetBlockNumberResult = z.infer<typeof getBlockNumberResultSchema>;
