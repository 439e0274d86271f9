export {
  postgresUser,
  sleep,
  stopChild,
  tcpOpen,
  waitForPostgresQueries,
  waitUntil,
} from './processes.js';
export {
  AppProcess,
  DEV_MAX_OLD_SPACE_MB,
  REPO_ROOT,
  spawnApp,
  type AppExit,
  type AppOutput,
  type AppProcessOptions,
  type HealthProbe,
  type SpawnAppOptions,
  type SpawnedApp,
} from './app-process.js';
