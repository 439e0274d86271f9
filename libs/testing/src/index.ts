export { freePort } from '@itp/dev-chain';
export { provisionInfra, type Infra, type Provisioned } from '@itp/harness';
export {
  TEST_ENV,
  createTestDatabase,
  testAdminDatabaseUrl,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from './test-infra.js';
export {
  spawnApp,
  startDevStack,
  type DevStack,
  type DevStackOptions,
  type SpawnAppOptions,
  type SpawnedApp,
} from '@itp/harness';
export { describeMinimalEnvStart, type MinimalEnvSuite } from './minimal-env-suite.js';
export {
  errorClassesOf,
  expectRestErrorsInCatalog,
  expectServiceErrorsInCatalog,
} from './error-catalog-check.js';
export { loseRedisData } from './lose-redis-data.js';
export { manualClock, waitFor, type ManualClock, type WaitForOptions } from './wait-for.js';
export {
  describeMigrateEntry,
  type MigrateEntrySuite,
  type MigrationTable,
} from './migrate-entry-suite.js';
