import { describe, expect, it } from '@jest/globals';
import { HDNodeWallet, Wallet, getCreateAddress } from 'ethers';
import { DEV_CHAIN } from './dev-chain.js';

describe('DEV_CHAIN', () => {
  it("names account #0 of anvil's default mnemonic", () => {
    const account0 = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/0");
    expect(account0.address).toBe(DEV_CHAIN.devOnlyAccount0.address);
    expect(account0.privateKey).toBe(DEV_CHAIN.devOnlyAccount0.privateKey);
    expect(new Wallet(DEV_CHAIN.devOnlyAccount0.privateKey).address).toBe(account0.address);
  });

  it("puts the registry at account #0's nonce-0 deployment address", () => {
    expect(getCreateAddress({ from: DEV_CHAIN.devOnlyAccount0.address, nonce: 0 })).toBe(
      DEV_CHAIN.didRegistryAddress,
    );
  });
});
