/**
 * `@itp/token-rpc/testing`: token-rpc's test kit for other projects (tools' specs): the real app,
 * built in process against the real Redis, PostgreSQL and chain.
 */
export { startTokenApp, type StartTokenAppOptions, type TokenTestApp } from './token-test-kit.js';
