import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, loadConfig } from '@itp/service-kit';
import { storeConfigShape } from './store-config.js';

const schema = z.object(storeConfigShape);

describe('storeConfigShape', () => {
  it('defaults DATA_DIR and leaves the rest unset', () => {
    expect(loadConfig(schema, {})).toEqual({ DATA_DIR: './data' });
  });

  it('accepts redis, rediss, postgres, postgresql and sqlite URLs', () => {
    const config = loadConfig(schema, {
      REDIS_URL: 'rediss://:pw@cache.internal:6380/0',
      DATABASE_URL: 'postgresql://u:pw@db.internal:5432/itp',
      DATA_DIR: '/data',
      REDIS_KEY_PREFIX: 'auth:',
    });
    expect(config).toEqual({
      REDIS_URL: 'rediss://:pw@cache.internal:6380/0',
      DATABASE_URL: 'postgresql://u:pw@db.internal:5432/itp',
      DATA_DIR: '/data',
      REDIS_KEY_PREFIX: 'auth:',
    });
    expect(loadConfig(schema, { DATABASE_URL: 'sqlite:./data/x.sqlite' }).DATABASE_URL).toBe(
      'sqlite:./data/x.sqlite',
    );
    expect(loadConfig(schema, { REDIS_URL: 'redis://localhost:6379' }).REDIS_URL).toBe(
      'redis://localhost:6379',
    );
  });

  it('rejects other schemes without echoing the value', () => {
    const attempt = () =>
      loadConfig(schema, {
        REDIS_URL: 'http://user:topsecret@cache',
        DATABASE_URL: 'mysql://user:topsecret@db/app',
      });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(attempt).toThrow(/DATABASE_URL: must be a postgres:\/\/, postgresql:\/\/ or sqlite/);
    expect(attempt).not.toThrow(/topsecret/);
    expect(() => loadConfig(schema, { DATABASE_URL: 'sqlite:' })).toThrow(/DATABASE_URL/);
  });
});
