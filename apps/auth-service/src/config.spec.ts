import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig, type Env } from '@itp/service-kit';
import { authPublicUrl, authServiceConfigSchema, siweChain } from './config.js';
import { PUBLISHED_SIGNING_KEY_D } from './jwt/signing-key-strength.js';
import { generateSigningJwk } from './jwt/signing-keys.js';
import { newInternalApiToken } from './testing/start-auth-service.js';

/** What production needs, freshly generated. */
async function productionEnv(appEnv: string): Promise<Env> {
  return {
    APP_ENV: appEnv,
    JWT_SIGNING_KEYS: JSON.stringify([await generateSigningJwk()]),
    DID_SERVICE_INTERNAL_URL: 'http://did-service:8182',
    INTERNAL_TOKEN_AUTH_TO_DID: newInternalApiToken(),
    INTERNAL_TOKEN_DID_TO_AUTH: newInternalApiToken(),
    DATABASE_URL: 'postgres://u@127.0.0.1:1/db',
    REDIS_URL: 'redis://127.0.0.1:1',
    PUBLIC_URL: 'https://api.example.test',
  };
}

function configError(env: Env): ConfigError {
  try {
    loadConfig(authServiceConfigSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('the configuration was accepted');
}

describe('auth-service configuration', () => {
  it('refuses a plain-http PUBLIC_URL outside development unless it is loopback', async () => {
    const env = await productionEnv('production');
    expect(configError({ ...env, PUBLIC_URL: 'http://api.example.test' }).issues).toEqual([
      expect.stringMatching(/^PUBLIC_URL: must be an https URL when APP_ENV=production/),
    ]);
    expect(
      loadConfig(authServiceConfigSchema, { ...env, PUBLIC_URL: 'http://127.0.0.1:8080' })
        .PUBLIC_URL,
    ).toBe('http://127.0.0.1:8080');
  });

  describe('Sign-In with Ethereum: ETH_RPC_URL and CHAIN_ID, both or neither', () => {
    it('is off without them and on with both', async () => {
      const env = await productionEnv('production');
      expect(siweChain(loadConfig(authServiceConfigSchema, env))).toBeUndefined();
      const on = loadConfig(authServiceConfigSchema, {
        ...env,
        ETH_RPC_URL: 'http://chain-node:8545',
        CHAIN_ID: '31337',
      });
      expect(siweChain(on)).toEqual({
        rpcUrl: 'http://chain-node:8545',
        chainId: 31337,
        timeoutMs: 10_000,
      });
    });

    it.each([
      ['ETH_RPC_URL', { CHAIN_ID: '1' }],
      ['CHAIN_ID', { ETH_RPC_URL: 'http://chain-node:8545' }],
    ])('refuses to start without %s when the other is set', async (missing, given) => {
      const err = configError({ ...(await productionEnv('production')), ...given });
      expect(err.issues).toEqual([
        expect.stringMatching(`^${missing}: Sign-In with Ethereum needs both`),
      ]);
    });

    it('refuses a chain id that is no positive integer and an RPC URL that is not http(s)', async () => {
      const env = await productionEnv('production');
      expect(configError({ ...env, ETH_RPC_URL: 'ws://x', CHAIN_ID: '1' }).issues[0]).toMatch(
        /^ETH_RPC_URL/,
      );
      expect(configError({ ...env, ETH_RPC_URL: 'http://x', CHAIN_ID: '-1' }).issues[0]).toMatch(
        /^CHAIN_ID/,
      );
    });
  });

  describe('APP_ENV: anything but development is production', () => {
    it.each(['production', 'test'])(
      'APP_ENV=%s without JWT_SIGNING_KEYS, DID_SERVICE_INTERNAL_URL or an internal token is refused',
      async (appEnv) => {
        const env = await productionEnv(appEnv);
        expect(() => loadConfig(authServiceConfigSchema, env)).not.toThrow();
        for (const name of [
          'JWT_SIGNING_KEYS',
          'DID_SERVICE_INTERNAL_URL',
          'INTERNAL_TOKEN_AUTH_TO_DID',
          'INTERNAL_TOKEN_DID_TO_AUTH',
          'PUBLIC_URL',
        ]) {
          const err = configError({ ...env, [name]: undefined });
          expect(err.issues).toEqual([expect.stringMatching(`^${name}: required when APP_ENV=`)]);
        }
      },
    );

    it('development needs none of them', () => {
      expect(() => loadConfig(authServiceConfigSchema, { APP_ENV: 'development' })).not.toThrow();
    });

    it('PUBLIC_URL: an absolute http(s) URL, without its trailing slash; development defaults to the own port', async () => {
      const env = await productionEnv('test');
      const set = loadConfig(authServiceConfigSchema, {
        ...env,
        PUBLIC_URL: 'https://api.example.com/',
      });
      expect(authPublicUrl(set)).toBe('https://api.example.com');
      expect(configError({ ...env, PUBLIC_URL: 'api.example.com' }).issues).toEqual([
        expect.stringMatching(/^PUBLIC_URL: /),
      ]);
      const dev = loadConfig(authServiceConfigSchema, { APP_ENV: 'development', PORT: '9999' });
      expect(authPublicUrl(dev)).toBe('http://127.0.0.1:9999');
    });
  });

  describe('weak secrets are refused outside development, naming the variable, never the value', () => {
    const weakTokens = [
      'compose-demo-internal-token-change-me',
      'a'.repeat(40),
      'abcdefghijklmnopqrstuvwxyzabcdefghijkl',
      Buffer.alloc(32, 7).toString('base64'),
      // An English phrase: over 128 bits by character statistics, yet no key material.
      'thisismyinternaltokenfortheauthservicepleasedontshare',
      'thisismyinternaltokenfortheauthservicepleasedontshar',
    ];

    it.each(weakTokens)('INTERNAL_TOKEN_AUTH_TO_DID / _DID_TO_AUTH %#', async (token) => {
      for (const name of ['INTERNAL_TOKEN_AUTH_TO_DID', 'INTERNAL_TOKEN_DID_TO_AUTH']) {
        const err = configError({ ...(await productionEnv('test')), [name]: token });
        expect(err.issues).toEqual([expect.stringMatching(new RegExp(`^${name}: `))]);
        expect(err.message).not.toContain(token);
      }
    });

    it('a weak internal token is accepted in development only', async () => {
      expect(() =>
        loadConfig(authServiceConfigSchema, {
          APP_ENV: 'development',
          INTERNAL_TOKEN_DID_TO_AUTH: 'a'.repeat(40),
        }),
      ).not.toThrow();
    });

    it('the retired shared INTERNAL_API_TOKEN is refused, naming its replacements', async () => {
      const err = configError({
        ...(await productionEnv('test')),
        INTERNAL_API_TOKEN: newInternalApiToken(),
      });
      expect(err.issues).toEqual([
        expect.stringMatching(/^INTERNAL_API_TOKEN: no longer read.*INTERNAL_TOKEN_AUTH_TO_DID/),
      ]);
    });

    const withD = async (d: string) => {
      const good = await generateSigningJwk();
      return JSON.stringify([good, { ...good, kid: 'weak', d }]);
    };

    it.each([
      ['all bytes the same', Buffer.alloc(32, 0x11).toString('base64url')],
      ['a published example key', PUBLISHED_SIGNING_KEY_D[0]!],
      ['a short scalar', Buffer.from([1, 2, 3, 5]).toString('base64url')],
    ])('JWT_SIGNING_KEYS with %s', async (_label, d) => {
      const keys = await withD(d);
      const err = configError({ ...(await productionEnv('production')), JWT_SIGNING_KEYS: keys });
      expect(err.issues).toEqual([expect.stringMatching(/^JWT_SIGNING_KEYS: key #1 private key /)]);
      expect(err.message).not.toContain(d);
      expect(err.message).not.toContain(Buffer.from(d, 'base64url').toString('hex'));
    });

    it('fresh random keys and tokens pass', async () => {
      const env = await productionEnv('production');
      const keys = JSON.stringify([await generateSigningJwk(), await generateSigningJwk()]);
      const token = randomBytes(32).toString('hex');
      expect(() =>
        loadConfig(authServiceConfigSchema, {
          ...env,
          JWT_SIGNING_KEYS: keys,
          INTERNAL_TOKEN_DID_TO_AUTH: token,
        }),
      ).not.toThrow();
      // 32 random bytes as base64url (43 characters) too.
      expect(() =>
        loadConfig(authServiceConfigSchema, {
          ...env,
          INTERNAL_TOKEN_AUTH_TO_DID: randomBytes(32).toString('base64url'),
        }),
      ).not.toThrow();
    });
  });

  describe('TRUST_PROXY', () => {
    it('trusts no proxy by default; the gateway hop is configured explicitly', async () => {
      const env = await productionEnv('production');
      expect(loadConfig(authServiceConfigSchema, env).TRUST_PROXY).toBe(false);
      expect(
        loadConfig(authServiceConfigSchema, { ...env, TRUST_PROXY: 'loopback' }).TRUST_PROXY,
      ).toEqual(['loopback']);
      expect(
        loadConfig(authServiceConfigSchema, { ...env, TRUST_PROXY: '10.42.0.0/16' }).TRUST_PROXY,
      ).toEqual(['10.42.0.0/16']);
      expect(() =>
        loadConfig(authServiceConfigSchema, { ...env, TRUST_PROXY: 'the-gateway' }),
      ).toThrow(ConfigError);
    });
  });

  it('has the rate-limit defaults of the README', async () => {
    const config = loadConfig(authServiceConfigSchema, await productionEnv('production'));
    expect(config).toMatchObject({
      LOGIN_MAX_FAILURES_PER_ID: 5,
      LOGIN_ID_MAX_DELAY_SECONDS: 30,
      LOGIN_MAX_FAILURES_PER_IP: 50,
      LOGIN_FAILURE_WINDOW_SECONDS: 900,
    });
  });
});
