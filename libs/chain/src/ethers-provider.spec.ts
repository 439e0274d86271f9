import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Wallet, toBeHex, type JsonRpcProvider } from 'ethers';
import { createChainClient, type ChainClient } from './chain-client.js';
import { createEthersProvider } from './ethers-provider.js';
import { testChainUrl } from './testing/test-chain.js';

describe('createEthersProvider', () => {
  let anvil: { url: string };
  let client: ChainClient;
  let provider: JsonRpcProvider;
  beforeAll(async () => {
    anvil = { url: testChainUrl() };
    client = createChainClient({ rpcUrl: anvil.url });
    provider = createEthersProvider(anvil.url, await client.chainId());
  });
  afterAll(async () => {
    provider.destroy();
    await client.close();
  });

  it('serves the configured network without probing it', async () => {
    const network = await provider.getNetwork();
    expect(network.chainId).toBe(BigInt(await client.chainId()));
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(0);
  });

  it('gives two quick transactions of one account consecutive nonces', async () => {
    const wallet = Wallet.createRandom(provider);
    await client.request('anvil_setBalance', [wallet.address, toBeHex(10n ** 18n)]);
    const to = Wallet.createRandom().address;
    // One after the other, without waiting for the receipt: the nonce must not come from a cache.
    const a = await wallet.sendTransaction({ to, value: 1n });
    const b = await wallet.sendTransaction({ to, value: 2n });
    expect([a.nonce, b.nonce]).toEqual([0, 1]);
    await Promise.all([a.wait(), b.wait()]);
    expect(await provider.getBalance(to)).toBe(3n);
  });
});
