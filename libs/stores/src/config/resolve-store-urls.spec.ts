import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@itp/service-kit';
import { resolveStoreUrls } from './resolve-store-urls.js';

const dev = { APP_ENV: 'development', DATA_DIR: './data' };

describe('resolveStoreUrls', () => {
  it('development: a SQLite file per service and the in-process KV when nothing is set', () => {
    expect(resolveStoreUrls(dev, 'auth-service')).toEqual({
      redisUrl: undefined,
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
    ).toEqual({ redisUrl: 'redis://r:6379', databaseUrl: 'postgres://p/db' });
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
    ).toEqual({ redisUrl: 'redis://r:6379', databaseUrl: 'postgres://p/db' });
  });

  it('refuses a service name that could escape DATA_DIR', () => {
    expect(() => resolveStoreUrls(dev, '../etc/x')).toThrow(/Invalid service name/);
  });
});
