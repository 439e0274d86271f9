import type { RpcEndpoint } from '../jsonrpc/rpc-endpoint.js';
import type {
  CreateAddressResult,
  CreatedWallet,
  GetBalanceResult,
  GetTempKeyResult,
  GetTransactionStatusResult,
  ImportAddressResult,
  TokenApi,
  TransactionReceipt,
} from '../types.js';
import { waitForTransaction } from './wait-for-transaction.js';
import { wallet } from './wallet.js';

/** /token (docs/api.md §4): every method as a typed function, and wallets that sign for the caller. */
export function tokenApi(token: RpcEndpoint, erc20: RpcEndpoint, block: RpcEndpoint): TokenApi {
  const getTransactionStatus: TokenApi['getTransactionStatus'] = ({ transactionId }, call) =>
    token.call<GetTransactionStatusResult>('getTransactionStatus', { transactionId }, call);
  const createAddress: TokenApi['createAddress'] = (call) =>
    token.call<CreateAddressResult>('createAddress', {}, call);

  return {
    createAddress,
    importAddress: ({ mnemonic }, call) =>
      token.call<ImportAddressResult>('importAddress', { mnemonic }, call),
    getBalance: ({ address }, call) =>
      token.call<GetBalanceResult>('getBalance', { address }, call),
    getTempKey: ({ address, keyType }, call) =>
      token.call<GetTempKeyResult>('net_getTempKey', { address, keyType }, call),
    signData: (params, call) => token.call<string>('signData', params, call),
    transfer: (params, call) => token.transaction('transfer', params, call),
    createToken: (params, call) => token.transaction('createToken', params, call),
    getTransactionStatus,
    waitForTransaction: (transactionId, options) =>
      waitForTransaction(
        {
          status: (call) => getTransactionStatus({ transactionId }, call),
          receipt: (call) =>
            block.call<TransactionReceipt>('getTransactionReceipt', [transactionId], call),
        },
        transactionId,
        options,
      ),
    wallet: (credentials) => wallet({ token, erc20 }, credentials),
    createWallet: async (call): Promise<CreatedWallet> => {
      const { address, mnemonic, secretKey } = await createAddress(call);
      return Object.assign(wallet({ token, erc20 }, { address, secretKey }), {
        mnemonic,
        secretKey,
      });
    },
    call: (method, params, call) => token.call(method, params, call),
  };
}
