import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@itp/service-kit';
import { resolveSecrets } from './secrets.js';

describe('secrets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'did-secrets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('in development fills missing secrets from DATA_DIR/secrets', () => {
    const secrets = resolveSecrets({ APP_ENV: 'development', DATA_DIR: join(dir, 'dev') });
    expect(secrets.kmsKeys.current.id).toBe('k1');
    expect(secrets.kmsKeys.current.key).toHaveLength(32);
    expect(readFileSync(join(dir, 'dev', 'secrets', 'did-kms-secret-key'), 'utf8').trim()).toMatch(
      /^[0-9a-f]{64}$/,
    );
    const devToken = (file: string) =>
      readFileSync(join(dir, 'dev', 'secrets', file), 'utf8').trim();
    expect(secrets.tokenRpcToken).toBe(devToken('internal-token-did-to-token-rpc'));
    expect(secrets.authServiceToken).toBe(devToken('internal-token-did-to-auth'));
    expect(secrets.acceptedInternalApiTokens).toEqual([devToken('internal-token-auth-to-did')]);
    // Three different tokens: holding one lets a caller make only that pair's calls.
    const all = [
      secrets.tokenRpcToken,
      secrets.authServiceToken,
      devToken('internal-token-auth-to-did'),
    ];
    expect(new Set(all).size).toBe(3);
    for (const token of all) expect(token.length).toBeGreaterThanOrEqual(32);
    expect(resolveSecrets({ APP_ENV: 'development', DATA_DIR: join(dir, 'dev') })).toEqual(secrets);
    const given = resolveSecrets({
      APP_ENV: 'development',
      DATA_DIR: join(dir, 'dev'),
      DID_KMS_SECRET_KEY: 'ab'.repeat(32),
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: 'given-to-token-rpc-given',
      INTERNAL_TOKEN_DID_TO_AUTH: 'given-to-auth-given-to-auth',
      INTERNAL_TOKEN_AUTH_TO_DID: 'given-from-auth-given-from',
    });
    expect(given).toEqual({
      kmsKeys: { current: { id: 'k1', key: Buffer.alloc(32, 0xab) }, previous: [] },
      tokenRpcToken: 'given-to-token-rpc-given',
      authServiceToken: 'given-to-auth-given-to-auth',
      acceptedInternalApiTokens: ['given-from-auth-given-from'],
    });
  });

  it('outside development refuses to run without them, naming each', () => {
    const err = (() => {
      try {
        resolveSecrets({ APP_ENV: 'production', DATA_DIR: dir });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues).toEqual([
      expect.stringContaining('DID_KMS_SECRET_KEY: required when APP_ENV=production'),
      expect.stringContaining('INTERNAL_TOKEN_DID_TO_TOKEN_RPC: required when APP_ENV=production'),
      expect.stringContaining('INTERNAL_TOKEN_DID_TO_AUTH: required when APP_ENV=production'),
      expect.stringContaining('INTERNAL_TOKEN_AUTH_TO_DID: required when APP_ENV=production'),
    ]);
  });

  it('outside development refuses weak secrets, naming the variable but never the value', () => {
    const strongTokens = {
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: randomBytes(32).toString('base64url'),
      INTERNAL_TOKEN_DID_TO_AUTH: randomBytes(32).toString('base64url'),
      INTERNAL_TOKEN_AUTH_TO_DID: randomBytes(32).toString('base64url'),
    };
    const refused = (env: { DID_KMS_SECRET_KEY: string; INTERNAL_TOKEN_DID_TO_AUTH: string }) => {
      try {
        resolveSecrets({ APP_ENV: 'test', DATA_DIR: dir, ...strongTokens, ...env });
      } catch (e) {
        return e as ConfigError;
      }
      return undefined;
    };
    const strongKey = randomBytes(32).toString('hex');
    const strongToken = randomBytes(32).toString('base64url');
    const demo = refused({
      DID_KMS_SECRET_KEY: strongKey,
      INTERNAL_TOKEN_DID_TO_AUTH: 'compose-demo-internal-token-change-me',
    });
    expect(demo).toBeInstanceOf(ConfigError);
    expect(demo?.issues).toEqual([
      expect.stringMatching(/^INTERNAL_TOKEN_DID_TO_AUTH: .*published/),
    ]);
    expect(demo?.message).not.toContain('compose-demo');
    const zeros = refused({
      DID_KMS_SECRET_KEY: '0'.repeat(64),
      INTERNAL_TOKEN_DID_TO_AUTH: strongToken,
    });
    expect(zeros?.issues).toEqual([expect.stringMatching(/^DID_KMS_SECRET_KEY: .*all the same/)]);
    expect(
      refused({ DID_KMS_SECRET_KEY: strongKey, INTERNAL_TOKEN_DID_TO_AUTH: strongToken }),
    ).toBe(undefined);
  });

  it('reads previous KMS keys and accepted tokens, and checks each accepted token', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const token = randomBytes(32).toString('base64url');
    const next = randomBytes(32).toString('base64url');
    const tokens = {
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: randomBytes(32).toString('base64url'),
      INTERNAL_TOKEN_DID_TO_AUTH: randomBytes(32).toString('base64url'),
      INTERNAL_TOKEN_AUTH_TO_DID: token,
    };
    const secrets = resolveSecrets({
      APP_ENV: 'test',
      DATA_DIR: dir,
      DID_KMS_SECRET_KEY: `k2:${newKey.toString('base64')}`,
      DID_KMS_PREVIOUS_SECRET_KEYS: oldKey.toString('hex'),
      ...tokens,
      INTERNAL_API_ACCEPTED_TOKENS: [next],
    });
    expect(secrets.kmsKeys).toEqual({
      current: { id: 'k2', key: newKey },
      previous: [{ id: 'k1', key: oldKey }],
    });
    // Accepted: auth-service's token, then the rotation's next one; never the ones it sends.
    expect(secrets.acceptedInternalApiTokens).toEqual([token, next]);

    const issues = (env: Partial<Parameters<typeof resolveSecrets>[0]>) => {
      try {
        resolveSecrets({
          APP_ENV: 'test',
          DATA_DIR: dir,
          DID_KMS_SECRET_KEY: newKey.toString('hex'),
          ...tokens,
          ...env,
        });
      } catch (e) {
        return (e as ConfigError).issues;
      }
      return [];
    };
    expect(
      issues({ INTERNAL_API_ACCEPTED_TOKENS: ['compose-demo-internal-token-change-me'] }),
    ).toEqual([expect.stringMatching(/^INTERNAL_API_ACCEPTED_TOKENS \(entry 1\): .*published/)]);
    // Two keys without ids are both "k1": a stored value could not say which it needs.
    expect(issues({ DID_KMS_PREVIOUS_SECRET_KEYS: oldKey.toString('hex') })).toEqual([
      expect.stringMatching(
        /^DID_KMS_PREVIOUS_SECRET_KEYS: key id "k1" is also the id of DID_KMS_SECRET_KEY/,
      ),
    ]);
    expect(
      issues({
        DID_KMS_PREVIOUS_SECRET_KEYS: `k7:${oldKey.toString('hex')},k7:${newKey.toString('hex')}`,
      }).join('\n'),
    ).toMatch(/key id "k7" is given twice/);
    expect(issues({}).join('\n')).not.toContain(newKey.toString('hex'));
  });
});
