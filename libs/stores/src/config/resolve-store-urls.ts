import { ConfigError } from '@itp/service-kit';
import {
  redisTopologyOf,
  type RedisTopology,
  type RedisTopologyConfig,
} from '../kv/redis-topology.js';

export interface StoreUrlConfig extends RedisTopologyConfig {
  APP_ENV: string;
  REDIS_URL?: string;
  DATABASE_URL?: string;
  DATA_DIR: string;
}

export interface StoreUrls {
  /** Undefined only in development: use the in-process key-value stand-in. */
  redisUrl?: string;
  /** How to reach Redis: standalone unless REDIS_SENTINELS or REDIS_CLUSTER_NODES is set. */
  redisTopology: RedisTopology;
  databaseUrl: string;
}

const SERVICE_NAME = /^[a-z0-9][a-z0-9_-]*$/;

export type DatabaseUrlConfig = Pick<StoreUrlConfig, 'APP_ENV' | 'DATABASE_URL' | 'DATA_DIR'>;

/**
 * DATABASE_URL; in development without it, `sqlite:<DATA_DIR>/<service>.sqlite`. Anything but
 * development (production, test) requires DATABASE_URL (a ConfigError says so). The services and
 * their operator CLIs (which need the database only) resolve it here, so both open the same file.
 */
export function resolveDatabaseUrl(config: DatabaseUrlConfig, service: string): string {
  if (!SERVICE_NAME.test(service)) throw new Error(`Invalid service name "${service}"`);
  if (config.DATABASE_URL) return config.DATABASE_URL;
  if (config.APP_ENV === 'development') {
    return `sqlite:${config.DATA_DIR.replace(/\/+$/, '')}/${service}.sqlite`;
  }
  throw new ConfigError([
    `DATABASE_URL: required when APP_ENV=${config.APP_ENV} (postgres://, postgresql:// or sqlite: URL)`,
  ]);
}

/**
 * Where a service keeps its data. In development a missing DATABASE_URL becomes
 * `sqlite:<DATA_DIR>/<service>.sqlite` and a missing REDIS_URL the in-process stand-in. In every
 * other environment (production, test) both are required: a ConfigError names what is missing,
 * so that a deployment never runs on a stand-in by accident.
 */
export function resolveStoreUrls(config: StoreUrlConfig, service: string): StoreUrls {
  if (!SERVICE_NAME.test(service)) throw new Error(`Invalid service name "${service}"`);
  if (config.REDIS_SENTINELS && config.REDIS_CLUSTER_NODES) {
    throw new ConfigError([
      'REDIS_SENTINELS / REDIS_CLUSTER_NODES: set one of them (Sentinel or Cluster), not both',
    ]);
  }
  const redisTopology = redisTopologyOf(config);
  if (config.APP_ENV === 'development') {
    return {
      redisUrl: config.REDIS_URL,
      redisTopology,
      databaseUrl: resolveDatabaseUrl(config, service),
    };
  }
  const issues: string[] = [];
  if (!config.REDIS_URL) {
    issues.push(`REDIS_URL: required when APP_ENV=${config.APP_ENV} (redis:// or rediss:// URL)`);
  }
  if (!config.DATABASE_URL) {
    issues.push(
      `DATABASE_URL: required when APP_ENV=${config.APP_ENV} (postgres://, postgresql:// or sqlite: URL)`,
    );
  }
  if (!config.REDIS_URL || !config.DATABASE_URL) throw new ConfigError(issues);
  return { redisUrl: config.REDIS_URL, redisTopology, databaseUrl: config.DATABASE_URL };
}
