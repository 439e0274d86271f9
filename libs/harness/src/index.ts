export {
  isAlive,
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
export { runAuthCli } from './auth-cli.js';
export {
  bundleEntry,
  bundleServices,
  bundlesRoot,
  type EntryBundle,
  type ServiceBundles,
} from './bundle-apps.js';
export {
  DEV_STACK_UNLIMITED_ENV,
  startDevStack,
  type DevStack,
  type DevStackExit,
  type DevStackOptions,
  type DevStackStop,
} from './npm-start.js';
export {
  runProcess,
  spawnGuarded,
  type GuardedSpawnOptions,
  type RunOptions,
  type RunResult,
} from './spawn-guarded.js';
export {
  startStack,
  type Replica,
  type Stack,
  type StackInfra,
  type StackOptions,
} from './stack.js';
export { startTcpBalancer, type TcpBalancer } from './tcp-balancer.js';
export {
  APP_ENV,
  APP_NAMES,
  DEV_BLOCK_FINALITY_DEPTH,
  GATEWAY,
  INTERNAL_UPSTREAMS,
  UPSTREAMS,
  serviceEnv,
  serviceUrl,
  type StackAddresses,
  type UpstreamName,
  type WiringSettings,
} from './wiring.js';
export { guard, type Guard, type GuardOptions } from './reaper.js';
export {
  LocalRedis,
  redisServerPath,
  type LocalRedisOptions,
  type RedisSnapshot,
} from './redis.js';
export { LocalPostgres, postgresBinDir, type LocalPostgresOptions } from './postgres.js';
export { LocalChain, type LocalChainOptions } from './chain.js';
export {
  provisionChain,
  provisionInfra,
  provisionPostgres,
  provisionRedis,
  type Infra,
  type Provisioned,
} from './provision.js';
export { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
