/**
 * Dev tooling for a chain: the anvil launcher, the ERC-1056 registry deployer and free ports. Used
 * by the dev stack (`npm start`), the test harness and benchmarks — never by a service in
 * production, so `@foundry-rs/anvil` stays a dev dependency. Services that need the dev chain's
 * public constants in development mode (`DEV_CHAIN`) import `@itp/dev-chain/constants`, which
 * loads nothing else.
 */
export { headerHash, settleAnvilState, type StateSettlement } from './anvil-state.js';
export { anvilBinaryPath, startAnvil, type AnvilOptions, type RunningAnvil } from './anvil.js';
export { DID_REGISTRY_RUNTIME_CODE, deployDidRegistry } from './deploy-did-registry.js';
export { assertPortFree, freePort } from './free-port.js';
export { DEV_CHAIN } from './dev-chain.js';
