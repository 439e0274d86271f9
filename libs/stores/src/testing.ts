/**
 * Test-only entry point (`@itp/stores/testing`): the contract suites, for adapters written
 * elsewhere. Never import it from service code: it pulls in @jest/globals.
 */
export { kvStoreContract } from './kv/kv-store.contract.js';
export { sqlDatabaseContract } from './sql/sql-database.contract.js';
export { oneTimeMarksContract } from './one-time-marks/one-time-marks.contract.js';
