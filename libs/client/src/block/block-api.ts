import type { RpcEndpoint } from '../jsonrpc/rpc-endpoint.js';
import type {
  BlockApi,
  BlockRecord,
  GetBlockNumberResult,
  GetTransactionStatsResult,
  TransactionReceipt,
  TransactionRecord,
} from '../types.js';

/** getBlock's params: `[]`, `[block]` or `[block, fullTransactions]` (docs/api.md §5). */
export function getBlockParams(block: unknown, fullTransactions: boolean | undefined): unknown[] {
  if (fullTransactions !== undefined) return [block ?? 'latest', fullTransactions];
  return block === undefined ? [] : [block];
}

/** /block (docs/api.md §5): by-position params. */
export function blockApi(rpc: RpcEndpoint): BlockApi {
  return {
    getBlock: (block, options) => {
      const { fullTransactions, ...call } = options ?? {};
      return rpc.call<BlockRecord>('getBlock', getBlockParams(block, fullTransactions), call);
    },
    getBlockNumber: (call) => rpc.call<GetBlockNumberResult>('getBlockNumber', [], call),
    getTransaction: (hash, call) => rpc.call<TransactionRecord>('getTransaction', [hash], call),
    getTransactionReceipt: (hash, call) =>
      rpc.call<TransactionReceipt>('getTransactionReceipt', [hash], call),
    getTransactionStats: ({ from, to }, call) =>
      rpc.call<GetTransactionStatsResult>('getTransactionStats', [{ from, to }], call),
    call: (method, params, call) => rpc.call(method, params, call),
  };
}
