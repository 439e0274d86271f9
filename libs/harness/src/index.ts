export {
  postgresUser,
  sleep,
  stopChild,
  tcpOpen,
  waitForPostgresQueries,
  waitUntil,
} from './processes.js';
export { guard, type Guard, type GuardOptions } from './reaper.js';
export { LocalRedis, redisServerPath, type LocalRedisOptions } from './redis.js';
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
