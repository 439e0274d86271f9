import type { RpcEndpoint } from '../jsonrpc/rpc-endpoint.js';
import type {
  Erc20AllowanceResult,
  Erc20Api,
  Erc20BalanceOfResult,
  Erc20DecimalsResult,
  Erc20NameResult,
  Erc20SymbolResult,
  Erc20TotalSupplyResult,
} from '../types.js';

/** /token/erc20 (docs/api.md §4): every method names the token by `contract`. */
export function erc20Api(rpc: RpcEndpoint): Erc20Api {
  return {
    name: (params, call) => rpc.call<Erc20NameResult>('name', params, call),
    symbol: (params, call) => rpc.call<Erc20SymbolResult>('symbol', params, call),
    decimals: (params, call) => rpc.call<Erc20DecimalsResult>('decimals', params, call),
    totalSupply: (params, call) => rpc.call<Erc20TotalSupplyResult>('totalSupply', params, call),
    balanceOf: (params, call) => rpc.call<Erc20BalanceOfResult>('balanceOf', params, call),
    allowance: (params, call) => rpc.call<Erc20AllowanceResult>('allowance', params, call),
    transfer: (params, call) => rpc.transaction('transfer', params, call),
    approve: (params, call) => rpc.transaction('approve', params, call),
    transferFrom: (params, call) => rpc.transaction('transferFrom', params, call),
    call: (method, params, call) => rpc.call(method, params, call),
  };
}
