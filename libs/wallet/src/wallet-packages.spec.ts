import { describe, expect, it } from '@jest/globals';
import { Openid4vpClient } from '@openid4vc/openid4vp';
import { computeAddress } from 'ethers';
import { loadedWalletPackages, walletPackages } from './wallet-packages.js';

describe('walletPackages', () => {
  it('imports the packages once and then hands them out synchronously too', async () => {
    expect(() => loadedWalletPackages()).toThrow(/not loaded yet/);
    const first = walletPackages();
    expect(walletPackages()).toBe(first);
    const packages = await first;
    expect(packages.openid4vp.Openid4vpClient).toBe(Openid4vpClient);
    expect(packages.ethers.computeAddress).toBe(computeAddress);
    expect(loadedWalletPackages()).toBe(packages);
  });
});
