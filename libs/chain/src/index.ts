export { anvilBinaryPath, startAnvil, type AnvilOptions, type RunningAnvil } from './anvil.js';
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
export { DEV_CHAIN } from './dev-chain.js';
export { DID_REGISTRY_RUNTIME_CODE, deployDidRegistry } from './deploy-did-registry.js';
export { createEthersProvider, type EthersProviderOptions } from './ethers-provider.js';
export { assertPortFree, freePort } from './free-port.js';
export { describeRpcUrl, parseRpcUrl, type RpcEndpoint } from './rpc-url.js';
