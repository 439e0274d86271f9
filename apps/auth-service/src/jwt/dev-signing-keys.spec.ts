import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@itp/service-kit';
import {
  devSigningKeysFile,
  loadOrCreateDevSigningKeys,
  resolveSigningKeysJson,
} from './dev-signing-keys.js';
import { parseSigningKeySet, parseSigningKeys } from './signing-keys.js';

describe('development signing keys', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'auth-keys-'));
  });

  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('are created once (mode 0600) and read back after a restart', async () => {
    const file = devSigningKeysFile(dataDir);
    expect(file).toBe(join(dataDir, 'secrets', 'jwt-signing-keys.json'));
    const first = await loadOrCreateDevSigningKeys(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateDevSigningKeys(file)).toBe(first);
    const [key] = await parseSigningKeys(first);
    expect(key!.kid).toEqual(expect.any(String));
  });

  it('agree between instances that start together', async () => {
    const file = devSigningKeysFile(dataDir);
    const all = await Promise.all(
      Array.from({ length: 8 }, () => loadOrCreateDevSigningKeys(file)),
    );
    expect(new Set(all).size).toBe(1);
  });

  it('come from JWT_SIGNING_KEYS when set, and are required outside development', async () => {
    await expect(
      resolveSigningKeysJson({ APP_ENV: 'production', DATA_DIR: dataDir, JWT_SIGNING_KEYS: '[x]' }),
    ).resolves.toBe('[x]');
    for (const appEnv of ['production', 'test']) {
      await expect(resolveSigningKeysJson({ APP_ENV: appEnv, DATA_DIR: dataDir })).rejects.toThrow(
        ConfigError,
      );
    }
    await expect(
      resolveSigningKeysJson({ APP_ENV: 'development', DATA_DIR: dataDir }),
    ).resolves.toContain('"kty"');
  });

  it('hold an RSA key for RS256 beside the EC key, the same after a restart', async () => {
    const source = { APP_ENV: 'development', DATA_DIR: dataDir };
    const first = await parseSigningKeySet(await resolveSigningKeysJson(source));
    expect(first.keys).toHaveLength(1);
    expect(first.rsaKeys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256' })]);
    const again = await parseSigningKeySet(await resolveSigningKeysJson(source));
    expect(again.rsaKeys.map((k) => k.kid)).toEqual(first.rsaKeys.map((k) => k.kid));
    expect(again.keys.map((k) => k.kid)).toEqual(first.keys.map((k) => k.kid));
    expect(statSync(join(dataDir, 'secrets', 'jwt-signing-keys-rs256.json')).mode & 0o777).toBe(
      0o600,
    );
  });

  it('give a data folder from before RS256 an RSA key, keeping its EC key', async () => {
    const older = await loadOrCreateDevSigningKeys(devSigningKeysFile(dataDir));
    const [ecKey] = await parseSigningKeys(older);
    const set = await parseSigningKeySet(
      await resolveSigningKeysJson({ APP_ENV: 'development', DATA_DIR: dataDir }),
    );
    expect(set.keys.map((k) => k.kid)).toEqual([ecKey!.kid]);
    expect(set.rsaKeys).toHaveLength(1);
  });

  it('add nothing to a JWT_SIGNING_KEYS without an RSA key', async () => {
    const json = await loadOrCreateDevSigningKeys(devSigningKeysFile(dataDir));
    const set = await parseSigningKeySet(
      await resolveSigningKeysJson({
        APP_ENV: 'development',
        DATA_DIR: dataDir,
        JWT_SIGNING_KEYS: json,
      }),
    );
    expect(set.rsaKeys).toEqual([]);
  });
});
