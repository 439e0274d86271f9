import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '@itp/service-kit';
import { tokenRpcConfigSchema } from './config.js';

const KEY = `k1:${Buffer.alloc(32, 7).toString('base64')}`;
const base = {
  ETH_RPC_URL: 'http://127.0.0.1:8545',
  REDIS_URL: 'redis://127.0.0.1:6379',
  DATABASE_URL: 'sqlite::memory:',
};

function issuesOf(env: Record<string, string>): string[] {
  try {
    loadConfig(tokenRpcConfigSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  return [];
}

describe('token-rpc config', () => {
  it('refuses to start in production without the wallet master key and the internal token', () => {
    const issues = issuesOf({ ...base, APP_ENV: 'production' });
    expect(issues).toEqual([
      'WALLET_MASTER_KEY: required when APP_ENV=production (a deployment secret)',
      'INTERNAL_TOKEN_DID_TO_TOKEN_RPC: required when APP_ENV=production (a deployment secret)',
    ]);
  });

  it('loads in production with both secrets, with the documented defaults', () => {
    const config = loadConfig(tokenRpcConfigSchema, {
      ...base,
      WALLET_MASTER_KEY: KEY,
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: 'x'.repeat(32),
    });
    expect(config.APP_ENV).toBe('production');
    expect(config.PORT).toBe(8083);
    expect(config.TEMP_KEY_TTL_MS).toBe(300_000);
    expect(config.TEMP_KEY_RETRY_TTL_MS).toBe(86_400_000);
    expect(config.TEMP_KEY_RETRY_WAIT_MS).toBe(10_000);
    expect(config.TX_RECONCILE_INTERVAL_MS).toBe(30_000);
    expect(config.TX_RECONCILE_GRACE_MS).toBe(10_000);
    expect(config.DEV_FUNDING_WEI).toBe('10000000000000000000');
  });

  it('validates the reconciler and retry settings', () => {
    const ok = { ...base, APP_ENV: 'development' };
    expect(issuesOf({ ...ok, TX_RECONCILE_INTERVAL_MS: '0', TX_RECONCILE_GRACE_MS: '0' })).toEqual(
      [],
    );
    expect(issuesOf({ ...ok, TX_RECONCILE_INTERVAL_MS: '50' })).toEqual([
      'TX_RECONCILE_INTERVAL_MS: must be 0 (off) or at least 100 ms',
    ]);
    expect(issuesOf({ ...ok, TX_RECONCILE_INTERVAL_MS: '-1' })).toHaveLength(1);
    expect(issuesOf({ ...ok, TX_RECONCILE_GRACE_MS: 'soon' })).toHaveLength(1);
    expect(issuesOf({ ...ok, TEMP_KEY_RETRY_TTL_MS: '0' })).toHaveLength(1);
    expect(issuesOf({ ...ok, TEMP_KEY_RETRY_WAIT_MS: '1.5' })).toHaveLength(1);
  });

  it('needs no secret in development (they are generated into DATA_DIR)', () => {
    expect(issuesOf({ ...base, APP_ENV: 'development' })).toEqual([]);
  });

  it('refuses a malformed master key without echoing it', () => {
    const issues = issuesOf({
      ...base,
      WALLET_MASTER_KEY: 'short-secret-value',
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: 'x'.repeat(32),
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^WALLET_MASTER_KEY: must be/);
    expect(issues[0]).not.toContain('short-secret-value');
    const previous = issuesOf({
      ...base,
      WALLET_MASTER_KEY: KEY,
      WALLET_PREVIOUS_MASTER_KEYS: `${KEY},bad`,
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: 'x'.repeat(32),
    });
    expect(previous[0]).toMatch(/^WALLET_PREVIOUS_MASTER_KEYS:/);
  });
});
