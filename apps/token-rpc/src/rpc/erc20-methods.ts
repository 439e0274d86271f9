import { defineMethod, type RpcMethod } from '@itp/jsonrpc';
import {
  erc20AllowanceParamsSchema,
  erc20AllowanceResultSchema,
  erc20ApproveParamsSchema,
  erc20BalanceOfParamsSchema,
  erc20BalanceOfResultSchema,
  erc20ContractParamsSchema,
  erc20DecimalsResultSchema,
  erc20NameResultSchema,
  erc20SymbolResultSchema,
  erc20TotalSupplyResultSchema,
  erc20TransactionResultSchema,
  erc20TransferFromParamsSchema,
  erc20TransferParamsSchema,
  TOKEN_SERVICE_ERRORS as E,
  TOKEN_TRANSACTION_ERRORS as TRANSACTION_ERRORS,
} from '@itp/schemas';
import type { Erc20Service } from '../erc20/erc20-service.js';
import { withRecordedExamples } from './examples.js';
import { RETRY } from './token-methods.js';

const READ_ERRORS = [E.unknownContract, E.notErc20, E.chain, E.chainUnavailable];
// In the order they are checked: the contract after the credentials, before the gas estimate.
const CONTRACT_CHECKED_AT = TRANSACTION_ERRORS.indexOf(E.badSignature) + 1;
const WRITE_ERRORS = [
  ...TRANSACTION_ERRORS.slice(0, CONTRACT_CHECKED_AT),
  E.unknownContract,
  ...TRANSACTION_ERRORS.slice(CONTRACT_CHECKED_AT),
];
const SIGNING =
  'keyType "erc20"; signature = signData over SHA-256("from|contract|to|amount|tempKey|hashKey"), each field exactly as sent.';

/**
 * The methods of `/token/erc20` (docs/api.md §4): every one names the token by `contract`. With their
 * recorded examples (examples.ts).
 */
export function erc20Methods(erc20: Erc20Service): RpcMethod[] {
  return withRecordedExamples('erc20', [
    defineMethod({
      name: 'name',
      summary: "The token's name.",
      paramsStyle: 'object',
      params: erc20ContractParamsSchema,
      result: erc20NameResultSchema,
      errors: READ_ERRORS,
      handler: (p) => erc20.name(p.contract),
    }),
    defineMethod({
      name: 'symbol',
      summary: "The token's symbol.",
      paramsStyle: 'object',
      params: erc20ContractParamsSchema,
      result: erc20SymbolResultSchema,
      errors: READ_ERRORS,
      handler: (p) => erc20.symbol(p.contract),
    }),
    defineMethod({
      name: 'decimals',
      summary: "The token's decimals.",
      paramsStyle: 'object',
      params: erc20ContractParamsSchema,
      result: erc20DecimalsResultSchema,
      errors: READ_ERRORS,
      handler: (p) => erc20.decimals(p.contract),
    }),
    defineMethod({
      name: 'totalSupply',
      summary: 'Total supply in base units.',
      paramsStyle: 'object',
      params: erc20ContractParamsSchema,
      result: erc20TotalSupplyResultSchema,
      errors: READ_ERRORS,
      handler: (p) => erc20.totalSupply(p.contract),
    }),
    defineMethod({
      name: 'balanceOf',
      summary: 'Token balance of an address in base units.',
      paramsStyle: 'object',
      params: erc20BalanceOfParamsSchema,
      result: erc20BalanceOfResultSchema,
      errors: READ_ERRORS,
      handler: (p) => erc20.balanceOf(p.contract, p.address),
    }),
    defineMethod({
      name: 'allowance',
      summary: 'How much `spender` may still spend of `owner`’s tokens.',
      paramsStyle: 'object',
      params: erc20AllowanceParamsSchema,
      result: erc20AllowanceResultSchema,
      errors: READ_ERRORS,
      handler: (p) => erc20.allowance(p.contract, p.owner, p.spender),
    }),
    defineMethod({
      name: 'transfer',
      summary: 'Sends tokens from a wallet address to `to`.',
      description: `${SIGNING} resultData and TransactionID are the transaction hash. ${RETRY}`,
      paramsStyle: 'object',
      params: erc20TransferParamsSchema,
      result: erc20TransactionResultSchema,
      kind: 'transaction',
      errors: WRITE_ERRORS,
      handler: (p, ctx) => erc20.transfer(p, ctx.requestId),
    }),
    defineMethod({
      name: 'approve',
      summary: 'Allows `to` (the spender) to spend up to `amount` of the wallet address’s tokens.',
      description: `${SIGNING} Here \`to\` is the spender. resultData and TransactionID are the transaction hash. ${RETRY}`,
      paramsStyle: 'object',
      params: erc20ApproveParamsSchema,
      result: erc20TransactionResultSchema,
      kind: 'transaction',
      errors: WRITE_ERRORS,
      handler: (p, ctx) => erc20.approve(p, ctx.requestId),
    }),
    defineMethod({
      name: 'transferFrom',
      summary: 'Moves `owner`’s tokens to `to`, sent by the spender `from` within its allowance.',
      description:
        `${SIGNING} \`from\` is the spender (the wallet address that signs and sends); \`owner\` is not ` +
        `part of the signing string. resultData and TransactionID are the transaction hash. ${RETRY}`,
      paramsStyle: 'object',
      params: erc20TransferFromParamsSchema,
      result: erc20TransactionResultSchema,
      kind: 'transaction',
      errors: WRITE_ERRORS,
      handler: (p, ctx) => erc20.transferFrom(p, ctx.requestId),
    }),
  ] as RpcMethod[]);
}
