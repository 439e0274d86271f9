import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@itp/service-kit';
import { resolveStoreUrls } from './resolve-store-urls.js';

const dev = { APP_ENV: 'development', DATA_DIR: './data' };

describe('resolveStoreUrls', () => {
  it('development: a SQLite file per service and the in-process KV when nothing is set', () => {
    expect(resolveStoreUrls(dev, 'auth-service')).toEqual({
      redisUrl: undefined,
      redisTopology: { mode: 'standalone' },
      databaseUrl: 'sqlite:./data/auth-service.sqlite',
    });
    expect(resolveStoreUrls({ ...dev, DATA_DIR: '/var/lib/itp/' }, 'token-rpc').databaseUrl).toBe(
      'sqlite:/var/lib/itp/token-rpc.sqlite',
    );
  });

  it('development: uses the URLs that are set', () => {
    expect(
      resolveStoreUrls(
        { ...dev, REDIS_URL: 'redis://r:6379', DATABASE_URL: 'postgres://p/db' },
        'auth-service',
      ),
    ).toEqual({
      redisUrl: 'redis://r:6379',
      redisTopology: { mode: 'standalone' },
      databaseUrl: 'postgres://p/db',
    });
  });

  it.each(['production', 'test'])('%s: both URLs are required, named in a ConfigError', (env) => {
    const config = { APP_ENV: env, DATA_DIR: './data' };
    expect(() => resolveStoreUrls(config, 'auth-service')).toThrow(ConfigError);
    expect(() => resolveStoreUrls(config, 'auth-service')).toThrow(/REDIS_URL[\s\S]*DATABASE_URL/);
    expect(() =>
      resolveStoreUrls({ ...config, REDIS_URL: 'redis://r:6379' }, 'auth-service'),
    ).toThrow(/DATABASE_URL: required when APP_ENV=/);
    expect(() =>
      resolveStoreUrls({ ...config, DATABASE_URL: 'postgres://p/db' }, 'auth-service'),
    ).toThrow(/REDIS_URL: required when APP_ENV=/);
    expect(
      resolveStoreUrls(
        { ...config, REDIS_URL: 'redis://r:6379', DATABASE_URL: 'postgres://p/db' },
        'auth-service',
      ),
    ).toEqual({
      redisUrl: 'redis://r:6379',
      redisTopology: { mode: 'standalone' },
      databaseUrl: 'postgres://p/db',
    });
  });

  it('reads the Sentinel or Cluster topology, refusing both at once', () => {
    const prod = {
      APP_ENV: 'production',
      DATA_DIR: './data',
      REDIS_URL: 'redis://:pw@x',
      DATABASE_URL: 'postgres://p/db',
    };
    expect(
      resolveStoreUrls(
        { ...prod, REDIS_SENTINELS: 's1:26380, [::1]', REDIS_SENTINEL_NAME: 'itp' },
        'auth-service',
      ).redisTopology,
    ).toEqual({
      mode: 'sentinel',
      name: 'itp',
      sentinels: [
        { host: 's1', port: 26380 },
        { host: '::1', port: 26379 },
      ],
    });
    expect(
      resolveStoreUrls({ ...prod, REDIS_CLUSTER_NODES: 'n1,n2:7001' }, 'auth-service')
        .redisTopology,
    ).toEqual({
      mode: 'cluster',
      nodes: [
        { host: 'n1', port: 6379 },
        { host: 'n2', port: 7001 },
      ],
    });
    expect(() =>
      resolveStoreUrls(
        { ...prod, REDIS_SENTINELS: 's1', REDIS_CLUSTER_NODES: 'n1' },
        'auth-service',
      ),
    ).toThrow(/not both/);
  });

  it('refuses a service name that could escape DATA_DIR', () => {
    expect(() => resolveStoreUrls(dev, '../etc/x')).toThrow(/Invalid service name/);
  });
});
