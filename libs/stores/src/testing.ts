/**
 * Test-only entry point (`@itp/stores/testing`): the contract suites, for adapters written
 * elsewhere, and `startTcpProxy`, to take PostgreSQL or Redis away from a running service. Never
 * import it from service code: it pulls in @jest/globals.
 */
export { kvStoreContract } from './kv/kv-store.contract.js';
export { sqlDatabaseContract } from './sql/sql-database.contract.js';
export { startTcpProxy, type TcpProxy } from './testing/tcp-proxy.js';
