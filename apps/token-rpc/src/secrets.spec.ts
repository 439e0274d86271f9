import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { weakSecretIssues } from '@itp/crypto';
import { ConfigError } from '@itp/service-kit';
import { resolveSecrets } from './secrets.js';

const dir = mkdtempSync(join(tmpdir(), 'token-secrets-'));
const randomToken = () => randomBytes(32).toString('base64url');
const randomMasterKey = (id = 'k1') => `${id}:${randomBytes(32).toString('base64')}`;

/** The ConfigError issues of resolving `secrets` outside development (none: it resolved). */
function refusal(appEnv: 'production' | 'test', secrets: Record<string, string>): string[] {
  try {
    resolveSecrets({ APP_ENV: appEnv, DATA_DIR: dir, ...secrets });
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  return [];
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveSecrets', () => {
  it('generates the dev master key and internal token once, mode 0600, and keeps them', () => {
    const config = { APP_ENV: 'development' as const, DATA_DIR: dir };
    const first = resolveSecrets(config);
    const keyFile = join(dir, 'secrets', 'wallet-master.key');
    const tokenFile = join(dir, 'secrets', 'internal-token-did-to-token-rpc');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const sealed = first.keyring.seal('x');
    const second = resolveSecrets(config);
    expect(second.keyring.open(sealed)).toBe('x');
    expect(second.callerToken).toBe(first.callerToken);
    expect(first.callerToken.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(tokenFile, 'utf8').trim()).toBe(first.callerToken);
  });

  it('uses the configured secrets and previous keys', () => {
    const old = randomMasterKey('old');
    const current = randomMasterKey('new');
    const token = randomToken();
    const sealedOld = resolveSecrets({
      APP_ENV: 'production',
      DATA_DIR: dir,
      WALLET_MASTER_KEY: old,
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: token,
    }).keyring.seal('v');
    const secrets = resolveSecrets({
      APP_ENV: 'production',
      DATA_DIR: dir,
      WALLET_MASTER_KEY: current,
      WALLET_PREVIOUS_MASTER_KEYS: old,
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: token,
    });
    expect(secrets.keyring.open(sealedOld)).toBe('v');
    expect(secrets.callerToken).toBe(token);
  });

  it('refuses to run outside development without the secrets', () => {
    expect(() => resolveSecrets({ APP_ENV: 'production', DATA_DIR: dir })).toThrow(ConfigError);
  });

  describe.each(['production', 'test'] as const)('APP_ENV=%s refuses weak secrets', (appEnv) => {
    it('refuses the compose demo token, naming the variable and never the value', () => {
      const issues = refusal(appEnv, {
        WALLET_MASTER_KEY: randomMasterKey(),
        INTERNAL_TOKEN_DID_TO_TOKEN_RPC: 'compose-demo-internal-token-change-me',
      });
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatch(/^INTERNAL_TOKEN_DID_TO_TOKEN_RPC: /);
      expect(issues.join('\n')).not.toContain('compose-demo');
    });

    it('refuses a master key whose bytes are all the same', () => {
      const weakKey = `k1:${Buffer.alloc(32, 0x07).toString('base64')}`;
      const issues = refusal(appEnv, {
        WALLET_MASTER_KEY: weakKey,
        INTERNAL_TOKEN_DID_TO_TOKEN_RPC: randomToken(),
      });
      expect(issues).toEqual([expect.stringMatching(/^WALLET_MASTER_KEY: .*all the same/)]);
      expect(issues.join('\n')).not.toContain(weakKey.slice(3));
    });

    it('refuses a low-entropy token (and reports both when both are weak)', () => {
      const lowEntropy = 'internal-token-internal-token-internal-token';
      expect(
        refusal(appEnv, {
          WALLET_MASTER_KEY: randomMasterKey(),
          INTERNAL_TOKEN_DID_TO_TOKEN_RPC: lowEntropy,
        }),
      ).toEqual([expect.stringMatching(/^INTERNAL_TOKEN_DID_TO_TOKEN_RPC: .*entropy/)]);
      expect(
        refusal(appEnv, {
          WALLET_MASTER_KEY: `k1:${Buffer.alloc(32, 0).toString('base64')}`,
          INTERNAL_TOKEN_DID_TO_TOKEN_RPC: 'x'.repeat(40),
        }).map((issue) => issue.split(':')[0]),
      ).toEqual(['WALLET_MASTER_KEY', 'INTERNAL_TOKEN_DID_TO_TOKEN_RPC']);
    });

    it('checks every INTERNAL_API_ACCEPTED_TOKENS entry like the token itself', () => {
      const token = randomToken();
      const next = randomToken();
      const base = { APP_ENV: appEnv, DATA_DIR: dir, WALLET_MASTER_KEY: randomMasterKey() };
      const secrets = resolveSecrets({
        ...base,
        INTERNAL_TOKEN_DID_TO_TOKEN_RPC: token,
        INTERNAL_API_ACCEPTED_TOKENS: [next],
      });
      expect(secrets.callerToken).toBe(token);
      expect(secrets.acceptedInternalApiTokens).toEqual([token, next]);
      let issues: string[] = [];
      try {
        resolveSecrets({
          ...base,
          INTERNAL_TOKEN_DID_TO_TOKEN_RPC: token,
          INTERNAL_API_ACCEPTED_TOKENS: [next, 'compose-demo-internal-token-change-me'],
        });
      } catch (err) {
        issues = (err as ConfigError).issues;
      }
      expect(issues).toEqual([
        expect.stringMatching(/^INTERNAL_API_ACCEPTED_TOKENS \(entry 2\): .*published/),
      ]);
    });

    it('accepts random secrets', () => {
      const token = randomToken();
      const secrets = resolveSecrets({
        APP_ENV: appEnv,
        DATA_DIR: dir,
        WALLET_MASTER_KEY: randomMasterKey(),
        INTERNAL_TOKEN_DID_TO_TOKEN_RPC: token,
      });
      expect(secrets.callerToken).toBe(token);
      expect(secrets.keyring.open(secrets.keyring.seal('v'))).toBe('v');
    });
  });

  it('development still generates its own secrets and does not judge given ones', () => {
    const devDir = mkdtempSync(join(dir, 'dev-'));
    const generated = resolveSecrets({ APP_ENV: 'development', DATA_DIR: devDir });
    expect(weakSecretIssues({ INTERNAL_TOKEN_DID_TO_TOKEN_RPC: generated.callerToken })).toEqual(
      [],
    );
    expect(
      weakSecretIssues({
        WALLET_MASTER_KEY: readFileSync(
          join(devDir, 'secrets', 'wallet-master.key'),
          'utf8',
        ).trim(),
      }),
    ).toEqual([]);
    const given = resolveSecrets({
      APP_ENV: 'development',
      DATA_DIR: devDir,
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: 'compose-demo-internal-token-change-me',
    });
    expect(given.callerToken).toBe('compose-demo-internal-token-change-me');
  });

  it('creates a dev token once even when asked concurrently', async () => {
    const raceDir = mkdtempSync(join(dir, 'race-'));
    const values = await Promise.all(
      Array.from({ length: 10 }, () =>
        Promise.resolve().then(
          () => resolveSecrets({ APP_ENV: 'development', DATA_DIR: raceDir }).callerToken,
        ),
      ),
    );
    expect(new Set(values).size).toBe(1);
  });
});
