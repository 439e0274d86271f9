export {
  createChainClient,
  parseQuantity,
  type ChainClient,
  type ChainClientOptions,
} from './chain-client.js';
export {
  ChainCircuitOpenError,
  ChainIdMismatchError,
  ChainRpcError,
  ChainUnavailableError,
} from './chain-errors.js';
export {
  assertChainId,
  chainCircuitLog,
  chainClientOptions,
  chainConfigShape,
  openChainClient,
  type ChainConfig,
} from './chain-config.js';
export {
  CircuitBreaker,
  DEFAULT_CIRCUIT_COOLDOWN_MS,
  DEFAULT_CIRCUIT_FAILURE_THRESHOLD,
  type CircuitAdmission,
  type CircuitBreakerOptions,
  type CircuitState,
} from './circuit-breaker.js';
export { chainReadinessCheck } from './chain-readiness.js';
// createEthersProvider: `@itp/chain/ethers` (loads all of ethers: only the apps that need it).
export { describeRpcUrl, parseRpcUrl, type RpcEndpoint } from './rpc-url.js';
