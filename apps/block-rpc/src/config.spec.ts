import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@itp/service-kit';
import { loadBlockRpcConfig, readLimitPerMinute } from './config.js';

const minimal = { PORT: '0', ETH_RPC_URL: 'http://127.0.0.1:8545' };

describe('loadBlockRpcConfig', () => {
  it('fills the block settings with their defaults', () => {
    expect(loadBlockRpcConfig(minimal)).toMatchObject({
      BLOCK_FINALITY_DEPTH: 64,
      BLOCK_CACHE_SIZE: 2000,
      BLOCK_TIP_TTL_MS: 1000,
      BLOCK_INDEX_ENABLED: true,
      BLOCK_INDEX_POLL_MS: 1000,
      BLOCK_INDEX_START: 0,
      BLOCK_INDEX_BATCH: 100,
      BLOCK_INDEX_LEASE_MS: 15_000,
      STATS_MAX_DAYS: 366,
    });
  });

  it('reads the settings from strings', () => {
    const config = loadBlockRpcConfig({
      ...minimal,
      BLOCK_FINALITY_DEPTH: '2',
      BLOCK_TIP_TTL_MS: '0',
      BLOCK_INDEX_ENABLED: 'false',
      BLOCK_INDEX_START: '1000',
      STATS_MAX_DAYS: '31',
    });
    expect(config).toMatchObject({
      BLOCK_FINALITY_DEPTH: 2,
      BLOCK_TIP_TTL_MS: 0,
      BLOCK_INDEX_ENABLED: false,
      BLOCK_INDEX_START: 1000,
      STATS_MAX_DAYS: 31,
    });
  });

  it('limits reads per client address to 600 a minute, except in development; 0 turns it off', () => {
    const limit = (env: Record<string, string>) =>
      readLimitPerMinute(loadBlockRpcConfig({ ...minimal, ...env }));
    expect(limit({ APP_ENV: 'production' })).toBe(600);
    expect(limit({ APP_ENV: 'test' })).toBe(600);
    expect(limit({ APP_ENV: 'development' })).toBe(0);
    expect(limit({ APP_ENV: 'development', RATE_LIMIT_READ_PER_MINUTE: '120' })).toBe(120);
    expect(limit({ APP_ENV: 'production', RATE_LIMIT_READ_PER_MINUTE: '0' })).toBe(0);
    expect(() => loadBlockRpcConfig({ ...minimal, RATE_LIMIT_READ_PER_MINUTE: '-1' })).toThrow(
      'RATE_LIMIT_READ_PER_MINUTE',
    );
  });

  it.each([
    ['BLOCK_FINALITY_DEPTH', '-1'],
    ['BLOCK_CACHE_SIZE', '0'],
    ['BLOCK_TIP_TTL_MS', 'soon'],
    ['BLOCK_INDEX_ENABLED', 'maybe'],
    ['BLOCK_INDEX_BATCH', '5000'],
    ['STATS_MAX_DAYS', '1.5'],
    ['ETH_RPC_URL', 'ftp://node'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadBlockRpcConfig({ ...minimal, [name]: value })).toThrow(ConfigError);
    expect(() => loadBlockRpcConfig({ ...minimal, [name]: value })).toThrow(name);
  });
});
