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
    expect(secrets.internalApiToken.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'dev', 'secrets', 'internal-api-token'), 'utf8').trim()).toBe(
      secrets.internalApiToken,
    );
    expect(resolveSecrets({ APP_ENV: 'development', DATA_DIR: join(dir, 'dev') })).toEqual(secrets);
    const given = resolveSecrets({
      APP_ENV: 'development',
      DATA_DIR: join(dir, 'dev'),
      DID_KMS_SECRET_KEY: 'ab'.repeat(32),
      INTERNAL_API_TOKEN: 'given-token-given-token',
    });
    expect(given).toEqual({
      kmsKeys: { current: { id: 'k1', key: Buffer.alloc(32, 0xab) }, previous: [] },
      internalApiToken: 'given-token-given-token',
      acceptedInternalApiTokens: ['given-token-given-token'],
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
      expect.stringContaining('INTERNAL_API_TOKEN: required when APP_ENV=production'),
    ]);
  });

  it('outside development refuses weak secrets, naming the variable but never the value', () => {
    const refused = (env: { DID_KMS_SECRET_KEY: string; INTERNAL_API_TOKEN: string }) => {
      try {
        resolveSecrets({ APP_ENV: 'test', DATA_DIR: dir, ...env });
      } catch (e) {
        return e as ConfigError;
      }
      return undefined;
    };
    const strongKey = randomBytes(32).toString('hex');
    const strongToken = randomBytes(32).toString('base64url');
    const demo = refused({
      DID_KMS_SECRET_KEY: strongKey,
      INTERNAL_API_TOKEN: 'compose-demo-internal-token-change-me',
    });
    expect(demo).toBeInstanceOf(ConfigError);
    expect(demo?.issues).toEqual([expect.stringMatching(/^INTERNAL_API_TOKEN: .*published/)]);
    expect(demo?.message).not.toContain('compose-demo');
    const zeros = refused({ DID_KMS_SECRET_KEY: '0'.repeat(64), INTERNAL_API_TOKEN: strongToken });
    expect(zeros?.issues).toEqual([expect.stringMatching(/^DID_KMS_SECRET_KEY: .*all the same/)]);
    expect(refused({ DID_KMS_SECRET_KEY: strongKey, INTERNAL_API_TOKEN: strongToken })).toBe(
      undefined,
    );
  });

  it('reads previous KMS keys and accepted tokens, and checks each accepted token', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const token = randomBytes(32).toString('base64url');
    const next = randomBytes(32).toString('base64url');
    const secrets = resolveSecrets({
      APP_ENV: 'test',
      DATA_DIR: dir,
      DID_KMS_SECRET_KEY: `k2:${newKey.toString('base64')}`,
      DID_KMS_PREVIOUS_SECRET_KEYS: oldKey.toString('hex'),
      INTERNAL_API_TOKEN: token,
      INTERNAL_API_ACCEPTED_TOKENS: [next],
    });
    expect(secrets.kmsKeys).toEqual({
      current: { id: 'k2', key: newKey },
      previous: [{ id: 'k1', key: oldKey }],
    });
    expect(secrets.internalApiToken).toBe(token);
    expect(secrets.acceptedInternalApiTokens).toEqual([token, next]);

    const issues = (env: Partial<Parameters<typeof resolveSecrets>[0]>) => {
      try {
        resolveSecrets({
          APP_ENV: 'test',
          DATA_DIR: dir,
          DID_KMS_SECRET_KEY: newKey.toString('hex'),
          INTERNAL_API_TOKEN: token,
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
