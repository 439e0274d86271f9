import { z } from 'zod';
import {
  addressResult,
  amountResult,
  transactionHashResult,
  transactionIdParam,
} from './primitives.js';

/** What kind of transaction token-rpc sent (the method that sent it). */
export const TRANSACTION_KINDS = [
  'transfer',
  'createToken',
  'erc20.transfer',
  'erc20.approve',
  'erc20.transferFrom',
  'devFunding',
] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/**
 * The life of a transaction record. Not final: `sending` (signed and recorded, being broadcast),
 * `sent` (the node accepted it), `unknown` (the node did not answer the broadcast). Final: `mined`
 * (in a block, receipt status 1), `failed` (the node refused it and nothing was sent — no block
 * number —, or it was mined and reverted, receipt status 0 — with its block number), `dropped`
 * (never mined: its nonce was used by another transaction).
 */
export const TRANSACTION_STATUSES = [
  'sending',
  'sent',
  'unknown',
  'mined',
  'failed',
  'dropped',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** The statuses a record can still leave (the reconciler settles them against the chain). */
export const PENDING_TRANSACTION_STATUSES = ['sending', 'sent', 'unknown'] as const;
export type PendingTransactionStatus = (typeof PENDING_TRANSACTION_STATUSES)[number];

/** getTransactionStatus params: `{ transactionId }` (the TransactionID a transaction method returned). */
export const getTransactionStatusParamsSchema = z
  .object({ transactionId: transactionIdParam })
  .meta({ title: 'GetTransactionStatusParams' });
export type GetTransactionStatusParams = z.infer<typeof getTransactionStatusParamsSchema>;

const timestamp = z
  .string()
  .meta({ description: 'ISO 8601 UTC timestamp with milliseconds, e.g. 2026-01-31T12:00:00.000Z' });

export const getTransactionStatusResultSchema = z
  .object({
    transactionId: transactionHashResult.meta({
      description: 'the TransactionID (transaction hash), lower-case hex',
    }),
    kind: z.enum(TRANSACTION_KINDS).meta({ description: 'the method that sent the transaction' }),
    status: z.enum(TRANSACTION_STATUSES).meta({
      description:
        'sending | sent | unknown (not final: the service settles them against the chain) | ' +
        'mined | failed | dropped (final)',
    }),
    final: z.boolean().meta({ description: 'true when the status will not change any more' }),
    from: addressResult.meta({ description: 'the wallet address that signed and sent it' }),
    to: addressResult.nullable().meta({
      description:
        'the transaction’s recipient: the payee of transfer, the token contract of the erc20 methods, null for createToken',
    }),
    contractAddress: addressResult.nullable().meta({
      description: 'createToken: the address of the deployed contract; else null',
    }),
    amount: amountResult.meta({
      description:
        'the amount of the request: wei (transfer), token base units (erc20 transfer / approve / ' +
        'transferFrom), the initial supply (createToken)',
    }),
    nonce: z.number().int().min(0).meta({ description: 'the nonce of the transaction' }),
    blockNumber: z.number().int().min(0).nullable().meta({
      description: 'the block it was mined in (mined, or failed by a revert); else null',
    }),
    error: z.string().nullable().meta({
      description: 'why it failed, was dropped or is unknown; else null',
    }),
    createdAt: timestamp.meta({ description: 'when it was signed and recorded' }),
    updatedAt: timestamp.meta({ description: 'when its status last changed' }),
  })
  .meta({ title: 'GetTransactionStatusResult' });
export type GetTransactionStatusResult = z.infer<typeof getTransactionStatusResultSchema>;
