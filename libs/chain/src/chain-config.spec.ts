import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { loadConfig } from '@itp/service-kit';
import { createChainClient, type ChainClient } from './chain-client.js';
import {
  assertChainId,
  chainClientOptions,
  chainConfigShape,
  openChainClient,
} from './chain-config.js';
import { ChainIdMismatchError } from './chain-errors.js';
import { testChainUrl } from './testing/test-chain.js';

const schema = z.object(chainConfigShape);

describe('chainConfigShape', () => {
  it('parses the chain settings with their defaults', () => {
    expect(loadConfig(schema, { ETH_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ID: '' })).toEqual({
      ETH_RPC_URL: 'http://127.0.0.1:8545',
      ETH_RPC_TIMEOUT_MS: 10_000,
      ETH_RPC_BREAKER_FAILURES: 3,
      ETH_RPC_BREAKER_COOLDOWN_MS: 5_000,
    });
    expect(
      loadConfig(schema, {
        ETH_RPC_URL: 'https://node.example/v3/key',
        CHAIN_ID: '31337',
        DID_REGISTRY_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        ETH_RPC_TIMEOUT_MS: '2500',
        ETH_RPC_BREAKER_FAILURES: '0',
        ETH_RPC_BREAKER_COOLDOWN_MS: '1000',
      }),
    ).toEqual({
      ETH_RPC_URL: 'https://node.example/v3/key',
      CHAIN_ID: 31337,
      DID_REGISTRY_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      ETH_RPC_TIMEOUT_MS: 2500,
      ETH_RPC_BREAKER_FAILURES: 0,
      ETH_RPC_BREAKER_COOLDOWN_MS: 1000,
    });
  });

  it('gives the client its timeout and breaker (0 failures: none)', () => {
    const base = { ETH_RPC_URL: 'http://127.0.0.1:8545', ETH_RPC_TIMEOUT_MS: 2500 };
    expect(chainClientOptions(base)).toEqual({
      rpcUrl: base.ETH_RPC_URL,
      timeoutMs: 2500,
      breaker: { failureThreshold: 3, cooldownMs: 5_000 },
    });
    expect(
      chainClientOptions({ ...base, ETH_RPC_BREAKER_FAILURES: 5, ETH_RPC_BREAKER_COOLDOWN_MS: 800 })
        .breaker,
    ).toEqual({ failureThreshold: 5, cooldownMs: 800 });
    expect(chainClientOptions({ ...base, ETH_RPC_BREAKER_FAILURES: 0 }).breaker).toBe(false);
  });

  it('rejects what is not a chain setting', () => {
    expect(() => loadConfig(schema, {})).toThrow(/ETH_RPC_URL/);
    expect(() => loadConfig(schema, { ETH_RPC_URL: 'ws://127.0.0.1:8545' })).toThrow(/ETH_RPC_URL/);
    expect(() =>
      loadConfig(schema, { ETH_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ID: '1.5' }),
    ).toThrow(/CHAIN_ID/);
    expect(() =>
      loadConfig(schema, { ETH_RPC_URL: 'http://127.0.0.1:8545', DID_REGISTRY_ADDRESS: '0x12' }),
    ).toThrow(/DID_REGISTRY_ADDRESS/);
    expect(() =>
      loadConfig(schema, {
        ETH_RPC_URL: 'http://127.0.0.1:8545',
        ETH_RPC_BREAKER_COOLDOWN_MS: '5',
      }),
    ).toThrow(/ETH_RPC_BREAKER_COOLDOWN_MS/);
  });
});

describe('chain id check at start', () => {
  let anvil: { url: string };
  let client: ChainClient;
  let actual: number;
  beforeAll(async () => {
    anvil = { url: testChainUrl() };
    client = createChainClient({ rpcUrl: anvil.url });
    actual = await client.chainId();
  });
  afterAll(async () => {
    await client.close();
  });

  it('reads the chain id the node serves', async () => {
    expect(actual).toBe(Number(await client.request<string>('eth_chainId')));
  });

  it('accepts the node chain id, or no expectation', async () => {
    await expect(assertChainId(client, actual)).resolves.toBe(actual);
    await expect(assertChainId(client, undefined)).resolves.toBe(actual);
  });

  it('refuses another chain id', async () => {
    const err = await assertChainId(client, actual + 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChainIdMismatchError);
    expect((err as Error).message).toBe(
      `Chain id mismatch: configured CHAIN_ID ${actual + 1}, node serves ${actual}`,
    );
  });

  it('opens a client only for the configured chain', async () => {
    const config = { ETH_RPC_URL: anvil.url, ETH_RPC_TIMEOUT_MS: 5000 };
    const opened = await openChainClient({ ...config, CHAIN_ID: actual });
    await expect(opened.ping()).resolves.toBeUndefined();
    await opened.close();
    await expect(openChainClient({ ...config, CHAIN_ID: actual + 1 })).rejects.toBeInstanceOf(
      ChainIdMismatchError,
    );
  });
});
