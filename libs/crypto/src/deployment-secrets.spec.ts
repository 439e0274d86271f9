import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  INTERNAL_TOKENS,
  internalTokensHeldBy,
  resolveDeploymentSecret,
  resolveInternalToken,
  type InternalTokenName,
} from './deployment-secrets.js';

describe('deployment secrets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'itp-secrets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the configured value in every mode', () => {
    for (const APP_ENV of ['development', 'production', 'test']) {
      expect(
        resolveInternalToken(
          { APP_ENV, DATA_DIR: dir, INTERNAL_TOKEN_DID_TO_AUTH: 'given' },
          'INTERNAL_TOKEN_DID_TO_AUTH',
        ),
      ).toBe('given');
    }
  });

  it('in development generates one value per pair into DATA_DIR/secrets (0600)', () => {
    const dev = { APP_ENV: 'development', DATA_DIR: dir };
    const values = new Set<string>();
    for (const name of Object.keys(INTERNAL_TOKENS) as InternalTokenName[]) {
      const first = resolveInternalToken(dev, name);
      expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(resolveInternalToken(dev, name)).toBe(first);
      const file = join(dir, 'secrets', INTERNAL_TOKENS[name].file);
      expect(readFileSync(file, 'utf8').trim()).toBe(first);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      values.add(first!);
    }
    // Each pair its own token: holding one lets a service make only that one kind of call.
    expect(values.size).toBe(Object.keys(INTERNAL_TOKENS).length);
  });

  it("names the tokens each app holds: auth-service never holds the signer's", () => {
    expect(internalTokensHeldBy('token-rpc')).toEqual(['INTERNAL_TOKEN_DID_TO_TOKEN_RPC']);
    expect(internalTokensHeldBy('auth-service').sort()).toEqual([
      'INTERNAL_TOKEN_AUTH_TO_DID',
      'INTERNAL_TOKEN_DID_TO_AUTH',
    ]);
    expect(internalTokensHeldBy('did-service')).toHaveLength(3);
    expect(internalTokensHeldBy('gateway')).toEqual([]);
    expect(internalTokensHeldBy('block-rpc')).toEqual([]);
  });

  it('outside development never generates one', () => {
    for (const APP_ENV of ['production', 'test']) {
      expect(resolveDeploymentSecret({ APP_ENV, DATA_DIR: dir }, undefined, 'x', () => 'v')).toBe(
        undefined,
      );
    }
  });

  it('keeps a dev secret that is already there and generates only once', () => {
    mkdirSync(join(dir, 'kept', 'secrets'), { recursive: true });
    writeFileSync(join(dir, 'kept', 'secrets', 'x'), 'kept\n');
    let calls = 0;
    const generate = () => `new-${++calls}`;
    const config = { APP_ENV: 'development', DATA_DIR: join(dir, 'kept') };
    expect(resolveDeploymentSecret(config, undefined, 'x', generate)).toBe('kept');
    expect(resolveDeploymentSecret(config, undefined, 'y', generate)).toBe('new-1');
    expect(resolveDeploymentSecret(config, undefined, 'y', generate)).toBe('new-1');
    expect(calls).toBe(1);
  });
});
