import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@itp/service-kit';
import { didServiceConfigSchema } from './config.js';

const base = {
  ETH_RPC_URL: 'http://127.0.0.1:8545',
  TOKEN_RPC_INTERNAL_URL: 'http://127.0.0.1:8183',
  AUTH_SERVICE_URL: 'http://127.0.0.1:8081',
  AUTH_SERVICE_INTERNAL_URL: 'http://127.0.0.1:8181',
};

describe('did-service config', () => {
  it('refuses a plain-http PUBLIC_URL outside development unless it is loopback', () => {
    const production = { ...base, APP_ENV: 'production' };
    expect(() =>
      loadConfig(didServiceConfigSchema, { ...production, PUBLIC_URL: 'http://api.example.com' }),
    ).toThrow(/PUBLIC_URL: must be an https URL/);
    for (const url of ['https://api.example.com', 'http://localhost:8080']) {
      expect(
        loadConfig(didServiceConfigSchema, { ...production, PUBLIC_URL: url }).PUBLIC_URL,
      ).toBe(url);
    }
    const dev = { ...base, APP_ENV: 'development', PUBLIC_URL: 'http://api.example.com' };
    expect(loadConfig(didServiceConfigSchema, dev).PUBLIC_URL).toBe('http://api.example.com');
  });

  it('has defaults for everything but the upstream URLs', () => {
    const config = loadConfig(didServiceConfigSchema, base);
    expect(config).toMatchObject({
      PORT: 8082,
      JWT_ISSUER: 'itp-auth',
      JWT_AUDIENCE: 'itp',
      DID_ISSUER_ALIASES: ['itp-issuer'],
      DID_VERIFIER_ALIASES: ['itp-verifier'],
      DID_RESOLUTION_CACHE_TTL_MS: 60_000,
      DID_SIGNING_THREADS: 1,
      VP_LOGIN_MAX_AGE_SECONDS: 300,
    });
    expect(config.VC_LIFETIME_SECONDS).toBe(90 * 24 * 3600);
    expect(config.USER_STATUS_CACHE_MS).toBe(5_000);
    expect(config.STEP_UP_MAX_AGE_SECONDS).toBe(300);
    expect(config.OID4VCI_NONCES_PER_IP_PER_MINUTE).toBe(60);
    expect(config.TRUST_PROXY).toBe(false);
  });

  it('reads STEP_UP_MAX_AGE_SECONDS: whole seconds, 1 to 86400', () => {
    const read = (value: string) =>
      loadConfig(didServiceConfigSchema, { ...base, STEP_UP_MAX_AGE_SECONDS: value })
        .STEP_UP_MAX_AGE_SECONDS;
    expect(read('60')).toBe(60);
    for (const bad of ['0', '-1', '1.5', '86401', 'soon']) {
      expect(() => read(bad)).toThrow(/STEP_UP_MAX_AGE_SECONDS/);
    }
  });

  it('reads alias lists and refuses bad ones', () => {
    const config = loadConfig(didServiceConfigSchema, { ...base, DID_ISSUER_ALIASES: 'a, b ,c' });
    expect(config.DID_ISSUER_ALIASES).toEqual(['a', 'b', 'c']);
    expect(() =>
      loadConfig(didServiceConfigSchema, { ...base, DID_ISSUER_ALIASES: 'a,a' }),
    ).toThrow(/DID_ISSUER_ALIASES/);
    expect(() => loadConfig(didServiceConfigSchema, { ...base, DID_ISSUER_ALIASES: ',' })).toThrow(
      /DID_ISSUER_ALIASES/,
    );
    expect(() =>
      loadConfig(didServiceConfigSchema, { ...base, DID_VERIFIER_ALIASES: 'itp-issuer' }),
    ).toThrow(/DID_VERIFIER_ALIASES: aliases must differ/);
  });

  it('reads DID_NETWORK: unset or empty is the bare form, else a hex chain id or a name', () => {
    expect(loadConfig(didServiceConfigSchema, base).DID_NETWORK).toBeUndefined();
    expect(
      loadConfig(didServiceConfigSchema, { ...base, DID_NETWORK: '' }).DID_NETWORK,
    ).toBeUndefined();
    for (const network of ['0x7a69', 'sepolia', 'itp-dev']) {
      expect(
        loadConfig(didServiceConfigSchema, { ...base, DID_NETWORK: network }).DID_NETWORK,
      ).toBe(network);
    }
    for (const network of ['0x7A69', '0x07a69', '31337', 'mainnet', 'a:b', 'Dev']) {
      expect(() => loadConfig(didServiceConfigSchema, { ...base, DID_NETWORK: network })).toThrow(
        /DID_NETWORK/,
      );
    }
  });

  it('refuses malformed secrets and URLs without echoing them', () => {
    expect(() =>
      loadConfig(didServiceConfigSchema, { ...base, DID_KMS_SECRET_KEY: 'short-secret' }),
    ).toThrow(/DID_KMS_SECRET_KEY: must be 32 bytes as 64 hex digits/);
    try {
      loadConfig(didServiceConfigSchema, { ...base, DID_KMS_SECRET_KEY: 'short-secret' });
    } catch (err) {
      expect((err as Error).message).not.toContain('short-secret');
    }
    expect(() =>
      loadConfig(didServiceConfigSchema, { ...base, TOKEN_RPC_INTERNAL_URL: 'token-rpc:8183' }),
    ).toThrow(/TOKEN_RPC_INTERNAL_URL/);
  });

  it('reads the status list settings: length at least 131,072, cache time, PUBLIC_URL', () => {
    const config = loadConfig(didServiceConfigSchema, base);
    expect([config.STATUS_LIST_LENGTH, config.STATUS_LIST_MAX_AGE_SECONDS]).toEqual([131_072, 300]);
    expect(config.PUBLIC_URL).toBeUndefined();
    const set = loadConfig(didServiceConfigSchema, {
      ...base,
      STATUS_LIST_LENGTH: '262144',
      STATUS_LIST_MAX_AGE_SECONDS: '0',
      PUBLIC_URL: 'https://api.example.com/',
    });
    expect([set.STATUS_LIST_LENGTH, set.STATUS_LIST_MAX_AGE_SECONDS, set.PUBLIC_URL]).toEqual([
      262_144,
      0,
      'https://api.example.com',
    ]);
    expect(() =>
      loadConfig(didServiceConfigSchema, { ...base, STATUS_LIST_LENGTH: '131071' }),
    ).toThrow(/STATUS_LIST_LENGTH: must be at least 131072/);
    expect(() =>
      loadConfig(didServiceConfigSchema, { ...base, PUBLIC_URL: 'api.example.com' }),
    ).toThrow(/PUBLIC_URL/);
  });

  it('refuses the retired shared INTERNAL_API_TOKEN, naming the per-pair tokens', () => {
    expect(() =>
      loadConfig(didServiceConfigSchema, { ...base, INTERNAL_API_TOKEN: 'x'.repeat(40) }),
    ).toThrow(/INTERNAL_API_TOKEN: no longer read.*INTERNAL_TOKEN_DID_TO_TOKEN_RPC/);
  });
});
