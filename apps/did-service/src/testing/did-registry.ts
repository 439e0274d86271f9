import { HDNodeWallet } from 'ethers';
import { DEV_CHAIN, deployDidRegistry } from '@itp/dev-chain';
import { waitFor } from '@itp/testing/wait-for';

/**
 * The ERC-1056 registry on the shared test chain, deployed by dev account #9 (an account only
 * did-service's tests use, so that nobody else's nonces collide with ours). Test files running
 * at once may race on the first deployment: the loser retries (for up to 10 s) and finds the
 * winner's registry.
 */
export async function ensureTestDidRegistry(rpcUrl: string): Promise<string> {
  const deployer = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/9");
  return waitFor(() => deployDidRegistry(rpcUrl, deployer.privateKey), {
    what: 'the DID registry to be deployed on the test chain (dev account #9)',
    timeoutMs: 10_000,
    intervalMs: 200,
  });
}
