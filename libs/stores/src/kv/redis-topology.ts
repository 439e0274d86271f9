import { Cluster, Redis, type RedisOptions } from 'ioredis';

export interface RedisNode {
  host: string;
  port: number;
}

/**
 * How a service reaches Redis. `standalone`: REDIS_URL's host. `sentinel`: ask the Sentinels
 * (REDIS_SENTINELS) for the current primary of REDIS_SENTINEL_NAME, and again after a failover.
 * `cluster`: Redis Cluster from the seed nodes (REDIS_CLUSTER_NODES). In every mode REDIS_URL
 * still gives the credentials, TLS (`rediss://`) and, outside a cluster, the database number.
 *
 * Cluster and key slots: every KvStore operation touches one key (the compare-and-swap and
 * counter scripts take KEYS[1] only), so no operation spans slots and no key needs a hash tag.
 * A future multi-key operation must put its keys in one slot: `{<id>}:a`, `{<id>}:b`.
 */
export type RedisTopology =
  | { mode: 'standalone' }
  | { mode: 'sentinel'; sentinels: RedisNode[]; name: string; sentinelPassword?: string }
  | { mode: 'cluster'; nodes: RedisNode[] };

/** `host:port,host:port` (IPv6 in brackets: `[::1]:26379`) → nodes; throws on a bad entry. */
export function parseRedisNodes(list: string, defaultPort: number): RedisNode[] {
  const nodes = list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = /^(?:\[([0-9a-fA-F:]+)\]|([A-Za-z0-9._-]+))(?::(\d{1,5}))?$/.exec(entry);
      const port = match?.[3] === undefined ? defaultPort : Number(match[3]);
      if (!match || port < 1 || port > 65535) throw new Error(`not host:port: "${entry}"`);
      return { host: (match[1] ?? match[2]) as string, port };
    });
  if (nodes.length === 0) throw new Error('no host:port given');
  return nodes;
}

export interface RedisTopologyConfig {
  REDIS_SENTINELS?: string;
  REDIS_SENTINEL_NAME?: string;
  REDIS_SENTINEL_PASSWORD?: string;
  REDIS_CLUSTER_NODES?: string;
}

/** The topology the (already validated) store settings describe. */
export function redisTopologyOf(config: RedisTopologyConfig): RedisTopology {
  if (config.REDIS_CLUSTER_NODES) {
    return { mode: 'cluster', nodes: parseRedisNodes(config.REDIS_CLUSTER_NODES, 6379) };
  }
  if (config.REDIS_SENTINELS) {
    return {
      mode: 'sentinel',
      sentinels: parseRedisNodes(config.REDIS_SENTINELS, 26379),
      name: config.REDIS_SENTINEL_NAME ?? 'mymaster',
      ...(config.REDIS_SENTINEL_PASSWORD
        ? { sentinelPassword: config.REDIS_SENTINEL_PASSWORD }
        : {}),
    };
  }
  return { mode: 'standalone' };
}

/** Credentials, TLS and database of a `redis://` / `rediss://` URL, for the other modes. */
export function connectionOptionsOf(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/** An ioredis client for the topology with the given options (keyPrefix, timeouts, retries…). */
export function createRedisClient(
  url: string,
  topology: RedisTopology,
  options: RedisOptions,
): Redis | Cluster {
  if (topology.mode === 'standalone') return new Redis(url, options);
  const connection = connectionOptionsOf(url);
  if (topology.mode === 'sentinel') {
    return new Redis({
      ...options,
      ...connection,
      sentinels: topology.sentinels,
      name: topology.name,
      ...(topology.sentinelPassword ? { sentinelPassword: topology.sentinelPassword } : {}),
      ...(connection.tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
    });
  }
  const { keyPrefix, db: _db, ...redisOptions } = { ...options, ...connection };
  return new Cluster(topology.nodes, {
    keyPrefix,
    redisOptions,
    // Each replica of a service sees slot moves itself; failovers refresh the slot map.
    slotsRefreshTimeout: 2000,
    enableOfflineQueue: options.enableOfflineQueue,
    enableReadyCheck: options.enableReadyCheck,
    clusterRetryStrategy: (attempt) => options.retryStrategy?.(attempt) ?? 1000,
  });
}
