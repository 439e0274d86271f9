import { z } from 'zod';
import { parseRedisNodes } from '../kv/redis-topology.js';

/** A `host:port,host:port` list; the message never echoes the value. */
function redisNodes(defaultPort: number) {
  return z.string().refine(
    (v) => {
      try {
        parseRedisNodes(v, defaultPort);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be a comma-separated host:port list' },
  );
}

function hasProtocol(value: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Store settings every service shares; spread into the service's schema next to baseConfigShape.
 * Messages never echo the value: URLs can carry passwords.
 */
export const storeConfigShape = {
  /** `redis://` or `rediss://`. Unset: the in-process stand-in (development only). */
  REDIS_URL: z
    .string()
    .refine((v) => hasProtocol(v, ['redis:', 'rediss:']), {
      message: 'must be a redis:// or rediss:// URL',
    })
    .optional(),
  /** `postgres://…`, `postgresql://…` or `sqlite:<path>`. Unset in development: a SQLite file. */
  DATABASE_URL: z
    .string()
    .refine(
      (v) =>
        hasProtocol(v, ['postgres:', 'postgresql:']) ||
        (v.startsWith('sqlite:') && v.length > 'sqlite:'.length),
      { message: 'must be a postgres://, postgresql:// or sqlite:<path> URL' },
    )
    .optional(),
  /** Where development SQLite files live (`<DATA_DIR>/<service>.sqlite`). */
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * Redis Sentinel: the Sentinels (`host:port,host:port`, port 26379 by default). REDIS_URL still
   * gives the password, TLS and database; its host is not used. See kv/redis-topology.ts.
   */
  REDIS_SENTINELS: redisNodes(26379).optional(),
  /** The primary's name the Sentinels monitor (`mymaster` by default). */
  REDIS_SENTINEL_NAME: z.string().min(1).optional(),
  /** The Sentinels' own password, when they have one (a deployment secret). */
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
  /**
   * Redis Cluster: seed nodes (`host:port,…`, port 6379 by default). REDIS_URL still gives the
   * password and TLS. Not together with REDIS_SENTINELS.
   */
  REDIS_CLUSTER_NODES: redisNodes(6379).optional(),
  /** Namespace for the service's Redis keys; services default to their own, e.g. `auth:`. */
  REDIS_KEY_PREFIX: z.string().min(1).optional(),
} as const;

export interface StoreConfig {
  REDIS_URL?: string;
  REDIS_SENTINELS?: string;
  REDIS_SENTINEL_NAME?: string;
  REDIS_SENTINEL_PASSWORD?: string;
  REDIS_CLUSTER_NODES?: string;
  DATABASE_URL?: string;
  DATA_DIR: string;
  REDIS_KEY_PREFIX?: string;
}
