import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@itp/service-kit';
import { loadOrCreateDevToken, resolveSecrets } from './secrets.js';

const dir = mkdtempSync(join(tmpdir(), 'token-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveSecrets', () => {
  it('generates the dev master key and internal token once, mode 0600, and keeps them', () => {
    const config = { APP_ENV: 'development' as const, DATA_DIR: dir };
    const first = resolveSecrets(config);
    const keyFile = join(dir, 'secrets', 'wallet-master.key');
    const tokenFile = join(dir, 'secrets', 'internal-api-token');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const sealed = first.keyring.seal('x');
    const second = resolveSecrets(config);
    expect(second.keyring.open(sealed)).toBe('x');
    expect(second.internalApiToken).toBe(first.internalApiToken);
    expect(first.internalApiToken.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(tokenFile, 'utf8').trim()).toBe(first.internalApiToken);
  });

  it('uses the configured secrets and previous keys', () => {
    const old = `old:${Buffer.alloc(32, 1).toString('base64')}`;
    const current = `new:${Buffer.alloc(32, 2).toString('base64')}`;
    const sealedOld = resolveSecrets({
      APP_ENV: 'production',
      DATA_DIR: dir,
      WALLET_MASTER_KEY: old,
      INTERNAL_API_TOKEN: 't'.repeat(32),
    }).keyring.seal('v');
    const secrets = resolveSecrets({
      APP_ENV: 'production',
      DATA_DIR: dir,
      WALLET_MASTER_KEY: current,
      WALLET_PREVIOUS_MASTER_KEYS: old,
      INTERNAL_API_TOKEN: 't'.repeat(32),
    });
    expect(secrets.keyring.open(sealedOld)).toBe('v');
    expect(secrets.internalApiToken).toBe('t'.repeat(32));
  });

  it('refuses to run outside development without the secrets', () => {
    expect(() => resolveSecrets({ APP_ENV: 'production', DATA_DIR: dir })).toThrow(ConfigError);
  });

  it('creates a dev token once even when asked concurrently', async () => {
    const file = join(dir, 'race', 'token');
    const values = await Promise.all(
      Array.from({ length: 10 }, () => Promise.resolve().then(() => loadOrCreateDevToken(file))),
    );
    expect(new Set(values).size).toBe(1);
  });
});
