import { z } from 'zod';
import { addressParam, addressResult, amountResult } from './primitives.js';

/** The read-only methods of /token/erc20. Every one names the token by `contract`. */
const contractParam = addressParam.meta({ description: 'address of the ERC-20 contract' });

/** name, symbol, decimals, totalSupply params: `{ contract }`. */
export const erc20ContractParamsSchema = z
  .object({ contract: contractParam })
  .meta({ title: 'Erc20ContractParams' });
export type Erc20ContractParams = z.infer<typeof erc20ContractParamsSchema>;

export const erc20NameResultSchema = z
  .object({ contract: addressResult, name: z.string() })
  .meta({ title: 'Erc20NameResult' });
export type Erc20NameResult = z.infer<typeof erc20NameResultSchema>;

export const erc20SymbolResultSchema = z
  .object({ contract: addressResult, symbol: z.string() })
  .meta({ title: 'Erc20SymbolResult' });
export type Erc20SymbolResult = z.infer<typeof erc20SymbolResultSchema>;

export const erc20DecimalsResultSchema = z
  .object({ contract: addressResult, decimals: z.number().int().min(0).max(255) })
  .meta({ title: 'Erc20DecimalsResult' });
export type Erc20DecimalsResult = z.infer<typeof erc20DecimalsResultSchema>;

export const erc20TotalSupplyResultSchema = z
  .object({ contract: addressResult, totalSupply: amountResult })
  .meta({ title: 'Erc20TotalSupplyResult' });
export type Erc20TotalSupplyResult = z.infer<typeof erc20TotalSupplyResultSchema>;

/** balanceOf params: `{ contract, address }`. */
export const erc20BalanceOfParamsSchema = z
  .object({ contract: contractParam, address: addressParam.meta({ description: 'token holder' }) })
  .meta({ title: 'Erc20BalanceOfParams' });
export type Erc20BalanceOfParams = z.infer<typeof erc20BalanceOfParamsSchema>;

export const erc20BalanceOfResultSchema = z
  .object({ contract: addressResult, address: addressResult, balance: amountResult })
  .meta({ title: 'Erc20BalanceOfResult' });
export type Erc20BalanceOfResult = z.infer<typeof erc20BalanceOfResultSchema>;

/** allowance params: `{ contract, owner, spender }`. */
export const erc20AllowanceParamsSchema = z
  .object({
    contract: contractParam,
    owner: addressParam.meta({ description: 'token holder' }),
    spender: addressParam.meta({ description: 'address allowed to spend' }),
  })
  .meta({ title: 'Erc20AllowanceParams' });
export type Erc20AllowanceParams = z.infer<typeof erc20AllowanceParamsSchema>;

export const erc20AllowanceResultSchema = z
  .object({
    contract: addressResult,
    owner: addressResult,
    spender: addressResult,
    allowance: amountResult,
  })
  .meta({ title: 'Erc20AllowanceResult' });
export type Erc20AllowanceResult = z.infer<typeof erc20AllowanceResultSchema>;
