import { z } from 'zod';
import {
  addressParam,
  amountParam,
  hashKeyParam,
  signatureParam,
  tempKeyParam,
  transactionHashResult,
} from './primitives.js';

/**
 * The state-changing methods of /token/erc20, authorised like transfer: a tempKey of keyType
 * `erc20` and a signature over `from|contract|to|amount|tempKey|hashKey` (docs/api.md §4).
 */
const authFields = {
  tempKey: tempKeyParam,
  hashKey: hashKeyParam,
  signature: signatureParam,
};
const contractParam = addressParam.meta({ description: 'address of the ERC-20 contract' });

/** erc20 transfer: `from` sends `amount` of its tokens to `to`. */
export const erc20TransferParamsSchema = z
  .object({
    from: addressParam.meta({ description: 'wallet address that holds the tokens and signs' }),
    contract: contractParam,
    to: addressParam.meta({ description: 'recipient' }),
    amount: amountParam.meta({ description: 'amount in token base units (decimal string)' }),
    ...authFields,
  })
  .meta({ title: 'Erc20TransferParams' });
export type Erc20TransferParams = z.infer<typeof erc20TransferParamsSchema>;

/** erc20 approve: `from` allows `to` (the spender) to spend `amount` of its tokens. */
export const erc20ApproveParamsSchema = z
  .object({
    from: addressParam.meta({ description: 'wallet address that owns the tokens and signs' }),
    contract: contractParam,
    to: addressParam.meta({ description: 'the spender' }),
    amount: amountParam.meta({ description: 'allowance in token base units (decimal string)' }),
    ...authFields,
  })
  .meta({ title: 'Erc20ApproveParams' });
export type Erc20ApproveParams = z.infer<typeof erc20ApproveParamsSchema>;

/**
 * erc20 transferFrom: `from` (the spender, a wallet address that signs and sends the
 * transaction) moves `amount` of `owner`'s tokens to `to`, within the allowance `owner` gave
 * `from`. Signing string as for every erc20 method: `from|contract|to|amount|tempKey|hashKey`.
 */
export const erc20TransferFromParamsSchema = z
  .object({
    from: addressParam.meta({ description: 'the spender: wallet address that signs and sends' }),
    contract: contractParam,
    owner: addressParam.meta({ description: 'holder whose tokens move (gave from an allowance)' }),
    to: addressParam.meta({ description: 'recipient' }),
    amount: amountParam.meta({ description: 'amount in token base units (decimal string)' }),
    ...authFields,
  })
  .meta({ title: 'Erc20TransferFromParams' });
export type Erc20TransferFromParams = z.infer<typeof erc20TransferFromParamsSchema>;

/** resultData of the erc20 transactions: the transaction hash (also in TransactionID). */
export const erc20TransactionResultSchema = transactionHashResult;
export type Erc20TransactionResult = z.infer<typeof erc20TransactionResultSchema>;
