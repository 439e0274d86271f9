import { HDNodeWallet } from 'ethers';
import { DEV_CHAIN, deployDidRegistry } from '@itp/dev-chain';

/**
 * The ERC-1056 registry on the shared test chain, deployed by dev account #9 (an account only
 * did-service's tests use, so that nobody else's nonces collide with ours). Test files running
 * at once may race on the first deployment: the loser retries and finds the winner's registry.
 */
export async function ensureTestDidRegistry(rpcUrl: string): Promise<string> {
  const deployer = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/9");
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      return await deployDidRegistry(rpcUrl, deployer.privateKey);
    } catch (err) {
      lastError = err;
      await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
    }
  }
  throw lastError;
}
