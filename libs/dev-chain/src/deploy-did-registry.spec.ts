import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HDNodeWallet, Wallet } from 'ethers';
import { startAnvil, type RunningAnvil } from './anvil.js';
import { createChainClient, type ChainClient } from '@itp/chain';
import { DID_REGISTRY_RUNTIME_CODE, deployDidRegistry } from './deploy-did-registry.js';
import { DEV_CHAIN } from './dev-chain.js';
import { createEthersProvider } from '@itp/chain/ethers';

describe('deployDidRegistry on a fresh anvil', () => {
  let anvil: RunningAnvil;
  let client: ChainClient;
  beforeAll(async () => {
    anvil = await startAnvil();
    client = createChainClient({ rpcUrl: anvil.url });
  });
  afterAll(async () => {
    await client.close();
    await anvil.stop();
  });

  it("deploys the registry at account #0's nonce-0 address, once", async () => {
    const key = DEV_CHAIN.devOnlyAccount0.privateKey;
    const first = await deployDidRegistry(anvil.url, key);
    expect(first).toBe(DEV_CHAIN.didRegistryAddress);
    const code = await client.request<string>('eth_getCode', [first, 'latest']);
    expect(code).toBe(DID_REGISTRY_RUNTIME_CODE);

    const second = await deployDidRegistry(anvil.url, key);
    expect(second).toBe(first);
    const nonce = await client.request<string>('eth_getTransactionCount', [
      DEV_CHAIN.devOnlyAccount0.address,
      'latest',
    ]);
    expect(Number(nonce)).toBe(1);
  });

  it('refuses when the nonce-0 address holds another contract', async () => {
    const account1 = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/1");
    const provider = createEthersProvider(anvil.url, DEV_CHAIN.chainId);
    try {
      const signer = new Wallet(account1.privateKey, provider);
      // Init code PUSH1 1 PUSH1 0 RETURN: the runtime code is one zero byte (STOP).
      const tx = await signer.sendTransaction({ data: '0x60016000f3' });
      await tx.wait();
    } finally {
      provider.destroy();
    }
    await expect(deployDidRegistry(anvil.url, account1.privateKey)).rejects.toThrow(
      /already holds a contract that is not the DID registry/,
    );
  });
});
