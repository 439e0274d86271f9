import { describe, expect, it } from '@jest/globals';
import { serviceEnv, type StackAddresses } from '@itp/harness';
import { readDevSettings } from './dev-settings.js';

const stack: StackAddresses = {
  chainUrl: 'http://127.0.0.1:9545',
  chainId: 31337,
  didRegistryAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  ports: { 'block-rpc': 9001, 'token-rpc': 9002, 'auth-service': 9003, 'did-service': 9004 },
  metricsPorts: {
    'block-rpc': 9101,
    'token-rpc': 9102,
    'auth-service': 9103,
    'did-service': 9104,
    gateway: 9100,
  },
  internalPorts: { 'token-rpc': 9202, 'auth-service': 9203, 'did-service': 9204 },
  internalTokens: {
    INTERNAL_TOKEN_DID_TO_TOKEN_RPC: 'a'.repeat(64),
    INTERNAL_TOKEN_DID_TO_AUTH: 'b'.repeat(64),
    INTERNAL_TOKEN_AUTH_TO_DID: 'c'.repeat(64),
  },
};

describe('readDevSettings', () => {
  it('defaults to port 8080, ./data below the repo and log level info', () => {
    const settings = readDevSettings({}, '/repo');
    expect(settings).toMatchObject({
      dataDir: '/repo/data',
      gatewayPort: 8080,
      logLevel: 'info',
      passThrough: {},
    });
  });

  it('takes PORT, DATA_DIR, LOG_LEVEL and the store URLs from the environment', () => {
    const settings = readDevSettings(
      {
        PORT: '9090',
        DATA_DIR: '/var/itp',
        LOG_LEVEL: 'debug',
        REDIS_URL: 'redis://127.0.0.1:6379',
        DATABASE_URL: '',
        NODE_OPTIONS: '--experimental-vm-modules',
      },
      '/repo',
    );
    expect(settings).toMatchObject({
      dataDir: '/var/itp',
      gatewayPort: 9090,
      logLevel: 'debug',
      passThrough: { REDIS_URL: 'redis://127.0.0.1:6379' },
    });
  });

  it('refuses a PORT that is no port', () => {
    expect(() => readDevSettings({ PORT: '0' }, '/repo')).toThrow(/PORT must be a TCP port/);
    expect(() => readDevSettings({ PORT: 'http' }, '/repo')).toThrow(/PORT must be a TCP port/);
  });
});

describe('serviceEnv', () => {
  it('gives every service development mode, the chain and all upstream URLs, nothing else', () => {
    const settings = readDevSettings(
      { DATA_DIR: '/d', DATABASE_URL: 'postgres://db/itp', NODE_OPTIONS: '--inspect' },
      '/repo',
    );
    const env = serviceEnv(settings, stack, 'token-rpc', 9002);
    const { PATH: _path, HOME: _home, ...rest } = env;
    expect(rest).toEqual({
      APP_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: '9002',
      METRICS_PORT: '9102',
      INTERNAL_PORT: '9202',
      PUBLIC_URL: 'http://localhost:8080',
      TRUST_PROXY: 'loopback',
      DATA_DIR: '/d',
      LOG_LEVEL: 'info',
      ETH_RPC_URL: 'http://127.0.0.1:9545',
      CHAIN_ID: '31337',
      DID_REGISTRY_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: 'a'.repeat(64),
      BLOCK_FINALITY_DEPTH: '2',
      BLOCK_RPC_URL: 'http://127.0.0.1:9001',
      TOKEN_RPC_URL: 'http://127.0.0.1:9002',
      AUTH_SERVICE_URL: 'http://127.0.0.1:9003',
      DID_SERVICE_URL: 'http://127.0.0.1:9004',
      TOKEN_RPC_INTERNAL_URL: 'http://127.0.0.1:9202',
      AUTH_SERVICE_INTERNAL_URL: 'http://127.0.0.1:9203',
      DID_SERVICE_INTERNAL_URL: 'http://127.0.0.1:9204',
      DATABASE_URL: 'postgres://db/itp',
    });
  });

  it('gives each service only the internal tokens of the calls it makes and answers', () => {
    const settings = readDevSettings({}, '/repo');
    const tokensOf = (name: string, port: number) =>
      Object.keys(serviceEnv(settings, stack, name, port))
        .filter((k) => k.startsWith('INTERNAL_TOKEN_'))
        .sort();
    expect(tokensOf('auth-service', 9003)).toEqual([
      'INTERNAL_TOKEN_AUTH_TO_DID',
      'INTERNAL_TOKEN_DID_TO_AUTH',
    ]);
    expect(tokensOf('did-service', 9004)).toHaveLength(3);
    expect(tokensOf('gateway', 8080)).toEqual([]);
    expect(tokensOf('block-rpc', 9001)).toEqual([]);
    expect(serviceEnv(settings, stack, 'gateway', 8080).INTERNAL_PORT).toBeUndefined();
  });

  it('gives the gateway its own metrics port and no trusted proxy', () => {
    const env = serviceEnv(readDevSettings({}, '/repo'), stack, 'gateway', 8080);
    expect(env.METRICS_PORT).toBe('9100');
    expect(env.TRUST_PROXY).toBeUndefined();
  });

  it('lets the user override the dev finality depth of block-rpc', () => {
    const settings = readDevSettings({ BLOCK_FINALITY_DEPTH: '64' }, '/repo');
    expect(serviceEnv(settings, stack, 'block-rpc', 9001).BLOCK_FINALITY_DEPTH).toBe('64');
    const defaults = readDevSettings({}, '/repo');
    expect(serviceEnv(defaults, stack, 'block-rpc', 9001).BLOCK_FINALITY_DEPTH).toBe('2');
  });

  it('passes DID_NETWORK and PUBLIC_URL from npm start to the services', () => {
    const settings = readDevSettings(
      { DID_NETWORK: 'devnet', PUBLIC_URL: 'https://itp.example/', PORT: '9090' },
      '/repo',
    );
    const env = serviceEnv(settings, stack, 'did-service', 9004);
    expect(env.DID_NETWORK).toBe('devnet');
    expect(env.PUBLIC_URL).toBe('https://itp.example');
    expect(
      serviceEnv(readDevSettings({ PORT: '9090' }, '/repo'), stack, 'gateway', 9090).PUBLIC_URL,
    ).toBe('http://localhost:9090');
  });
});

describe('restartDelayMs (the dev stack as a supervisor)', () => {
  it('waits 1, 2, 4, 8, 16 s, then at most 30 s between restarts in a row', async () => {
    const { restartDelayMs } = await import('./dev-stack.js');
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});

describe('formatBanner', () => {
  it('lists the docs, the demo and the demo login beside the APIs', async () => {
    const { formatBanner } = await import('./banner.js');
    const banner = formatBanner({
      gatewayUrl: 'http://localhost:8080',
      chainUrl: 'http://127.0.0.1:8545',
      chainId: 31337,
      didRegistryAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      dataDir: '/d',
      seconds: 4.2,
    });
    expect(banner).toContain('http://localhost:8080/docs');
    expect(banner).toContain('http://localhost:8080/demo');
    expect(banner).toContain('demo / demo-password');
  });
});
