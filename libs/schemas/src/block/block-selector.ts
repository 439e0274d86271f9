import { z } from 'zod';
import { hash32 } from './primitives.js';

/** Block tags getBlock accepts (the node's own tags). */
export const BLOCK_TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized'] as const;

export const blockTagSchema = z.enum(BLOCK_TAGS).meta({
  description:
    'latest: the head; earliest: block 0; pending: the block being built; safe / finalized: as the node defines them',
});
export type BlockTag = z.infer<typeof blockTagSchema>;

/** A block number as a non-negative safe integer (JSON number). */
export const blockNumberSchema = z
  .number()
  .int()
  .nonnegative()
  .meta({ description: 'block number, a non-negative integer' });

/** A block number as a 0x-hex quantity (1–16 hex digits, at most 2^53 - 1). */
export const blockHexNumberSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,16}$/, 'must be a 0x-prefixed hex quantity of 1 to 16 digits')
  .refine((v) => Number.isSafeInteger(Number(v)), 'must be at most 0x1fffffffffffff (2^53 - 1)')
  .meta({
    description:
      'block number as a 0x-prefixed hex quantity (e.g. "0x1b4"), at most 0x1fffffffffffff',
    // The same limit as a pattern, for the JSON Schema: 1-13 digits, or 14 starting with 1.
    pattern: '^0x([0-9a-fA-F]{1,13}|1[0-9a-fA-F]{13})$',
  });

/** A block hash: 0x + 64 hex digits (always read as a hash, never as a number). */
export const blockHashSchema = hash32;

/** The first getBlock param: which block. */
export const blockSelectorSchema = z
  .union([blockNumberSchema, blockTagSchema, blockHashSchema, blockHexNumberSchema])
  .meta({
    description:
      'a block number (integer or 0x-hex quantity), a tag, or a 0x-prefixed 32-byte block hash',
  });
export type BlockSelectorParam = z.infer<typeof blockSelectorSchema>;
