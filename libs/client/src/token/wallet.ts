import type { RpcEndpoint } from '../jsonrpc/rpc-endpoint.js';
import type {
  CallOptions,
  Erc20BalanceOfResult,
  GetBalanceResult,
  GetTempKeyResult,
  TempKeyType,
  Wallet,
  WalletErc20,
} from '../types.js';
import { hashKeyOf, signingHash } from './signing.js';

export interface WalletEndpoints {
  token: RpcEndpoint;
  erc20: RpcEndpoint;
}

/**
 * A wallet address with its secretKey. Every transaction runs the flow of docs/api.md §4.2:
 * net_getTempKey → hashKey = SHA-256(`tempKey|secretKey`) → signData over SHA-256 of the
 * method's fields and `tempKey|hashKey` → the method with tempKey, hashKey and signature. The
 * secretKey never leaves this object except as hashKey.
 */
export function wallet(
  endpoints: WalletEndpoints,
  credentials: { address: string; secretKey: string },
): Wallet {
  const { token, erc20 } = endpoints;
  const { address: from, secretKey } = credentials;

  const authorize: Wallet['authorize'] = async (
    keyType: TempKeyType,
    fields,
    call?: CallOptions,
  ) => {
    const { tempKey } = await token.call<GetTempKeyResult>(
      'net_getTempKey',
      { address: from, keyType },
      call,
    );
    const hashKey = await hashKeyOf(tempKey, secretKey);
    const hash = await signingHash(fields, tempKey, hashKey);
    const signature = await token.call<string>('signData', { from, hash, tempKey, hashKey }, call);
    return { tempKey, hashKey, signature };
  };

  const erc20Of = (contract: string): WalletErc20 => ({
    contract,
    balance: (call) =>
      erc20.call<Erc20BalanceOfResult>('balanceOf', { contract, address: from }, call),
    transfer: async ({ to, amount }, call) => {
      const auth = await authorize('erc20', [from, contract, to, amount], call);
      return erc20.transaction('transfer', { from, contract, to, amount, ...auth }, call);
    },
    approve: async ({ spender, amount }, call) => {
      const auth = await authorize('erc20', [from, contract, spender, amount], call);
      return erc20.transaction('approve', { from, contract, to: spender, amount, ...auth }, call);
    },
    transferFrom: async ({ owner, to, amount }, call) => {
      const auth = await authorize('erc20', [from, contract, to, amount], call);
      return erc20.transaction(
        'transferFrom',
        { from, contract, owner, to, amount, ...auth },
        call,
      );
    },
  });

  return {
    address: from,
    balance: (call) => token.call<GetBalanceResult>('getBalance', { address: from }, call),
    transfer: async ({ to, amount }, call) => {
      const auth = await authorize('transfer', [from, to, amount], call);
      return token.transaction('transfer', { from, to, amount, ...auth }, call);
    },
    createToken: async ({ name, symbol, decimals, initialSupply }, call) => {
      const fields = [from, name, symbol, String(decimals), initialSupply];
      const auth = await authorize('createToken', fields, call);
      return token.transaction(
        'createToken',
        { from, name, symbol, decimals, initialSupply, ...auth },
        call,
      );
    },
    erc20: erc20Of,
    authorize,
  };
}
