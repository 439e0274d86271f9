import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '@itp/service-kit';
import { gatewayConfigSchema } from './config.js';

const urls = {
  AUTH_SERVICE_URL: 'http://auth:8081',
  DID_SERVICE_URL: 'http://did:8082',
  TOKEN_RPC_URL: 'http://token:8083',
  BLOCK_RPC_URL: 'https://block.internal:8084/base/',
};

describe('gateway config', () => {
  it('has the documented defaults', () => {
    const config = loadConfig(gatewayConfigSchema, urls);
    expect(config).toMatchObject({
      APP_ENV: 'production',
      PORT: 8080,
      BODY_LIMIT_BYTES: 1024 * 1024,
      UPSTREAM_TIMEOUT_MS: 30_000,
      UPSTREAM_MAX_SOCKETS: 128,
      TRUST_PROXY: false,
      HSTS_MAX_AGE_SECONDS: 0,
      CORS_ORIGINS: [],
      ...urls,
    });
  });

  it('allows any origin by default in development only', () => {
    expect(loadConfig(gatewayConfigSchema, { ...urls, APP_ENV: 'development' }).CORS_ORIGINS).toBe(
      '*',
    );
    expect(loadConfig(gatewayConfigSchema, { ...urls, APP_ENV: 'test' }).CORS_ORIGINS).toEqual([]);
    expect(
      loadConfig(gatewayConfigSchema, { ...urls, APP_ENV: 'development', CORS_ORIGINS: ' ' })
        .CORS_ORIGINS,
    ).toEqual([]);
  });

  it('reads CORS_ORIGINS as * or a list of origins', () => {
    const read = (CORS_ORIGINS: string) =>
      loadConfig(gatewayConfigSchema, { ...urls, CORS_ORIGINS });
    expect(read('*').CORS_ORIGINS).toBe('*');
    expect(read('https://a.example, http://localhost:3000').CORS_ORIGINS).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    for (const bad of ['https://a.example/', 'https://a.example/path', 'a.example', 'null']) {
      expect(() => read(bad)).toThrow(ConfigError);
    }
  });

  it('reads TRUST_PROXY as express trust proxy values', () => {
    const read = (TRUST_PROXY: string) =>
      loadConfig(gatewayConfigSchema, { ...urls, TRUST_PROXY }).TRUST_PROXY;
    expect(read('false')).toBe(false);
    expect(read('true')).toBe(true);
    expect(read('2')).toBe(2);
    expect(read('loopback, 10.0.0.0/8, ::1')).toEqual(['loopback', '10.0.0.0/8', '::1']);
    expect(() => read('not-an-address')).toThrow(ConfigError);
    expect(() => read('10.0.0.0/8/1')).toThrow(ConfigError);
  });

  it('requires the four upstream URLs, http(s) only, and names every problem', () => {
    expect(() => loadConfig(gatewayConfigSchema, {})).toThrow(ConfigError);
    try {
      loadConfig(gatewayConfigSchema, {
        ...urls,
        TOKEN_RPC_URL: 'ftp://x',
        BLOCK_RPC_URL: undefined,
      });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const issues = (err as ConfigError).issues.join('\n');
      expect(issues).toContain('TOKEN_RPC_URL');
      expect(issues).toContain('BLOCK_RPC_URL');
      return;
    }
    throw new Error('expected a ConfigError');
  });

  it('rejects non-positive limits', () => {
    expect(() => loadConfig(gatewayConfigSchema, { ...urls, BODY_LIMIT_BYTES: '0' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig(gatewayConfigSchema, { ...urls, UPSTREAM_TIMEOUT_MS: '-1' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig(gatewayConfigSchema, { ...urls, UPSTREAM_MAX_SOCKETS: '0' })).toThrow(
      ConfigError,
    );
  });
});
