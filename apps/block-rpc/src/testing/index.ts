/**
 * `@itp/block-rpc/testing`: block-rpc's test kit for other projects (tools' specs): the real app,
 * built in process against the given chain, database and Redis.
 */
export { startHarness, type Harness, type HarnessOptions, type JsonRpcAnswer } from './harness.js';
