export {
  createChainClient,
  parseQuantity,
  type ChainClient,
  type ChainClientOptions,
} from './chain-client.js';
export { ChainIdMismatchError, ChainRpcError, ChainUnavailableError } from './chain-errors.js';
export {
  assertChainId,
  chainConfigShape,
  openChainClient,
  type ChainConfig,
} from './chain-config.js';
export { chainReadinessCheck } from './chain-readiness.js';
// createEthersProvider: `@itp/chain/ethers` (loads all of ethers: only the apps that need it).
export { describeRpcUrl, parseRpcUrl, type RpcEndpoint } from './rpc-url.js';
