/**
 * Compose's one-shot `did-registry` job (bundled into the did-service image as
 * dist/deploy-did-registry.js): deploys the ERC-1056 registry on a fresh dev chain and prints its
 * address. Idempotent: a registry already at the deployer's nonce-0 address is reused.
 *
 *   ETH_RPC_URL            the chain
 *   DEPLOYER_PRIVATE_KEY   a funded account (compose: anvil's public dev account #0)
 *   EXPECTED_ADDRESS       optional: fail unless the registry lands there, the address did-service
 *                          is configured with (DID_REGISTRY_ADDRESS)
 *
 * Only the deployer is imported (@itp/dev-chain/deploy-did-registry, not the package's index,
 * which holds the anvil launcher).
 */
import { getAddress } from 'ethers';
import { deployDidRegistry } from '@itp/dev-chain/deploy-did-registry';

const env = process.env;
const rpcUrl = env.ETH_RPC_URL;
const key = env.DEPLOYER_PRIVATE_KEY;
if (!rpcUrl || !key) {
  process.stderr.write('deploy-did-registry: ETH_RPC_URL and DEPLOYER_PRIVATE_KEY are required\n');
  process.exit(2);
}
try {
  const address = await deployDidRegistry(rpcUrl, key);
  if (env.EXPECTED_ADDRESS && getAddress(env.EXPECTED_ADDRESS) !== address) {
    process.stderr.write(
      `deploy-did-registry: the registry is at ${address}, not at EXPECTED_ADDRESS ${env.EXPECTED_ADDRESS}` +
        ' (the deployer had sent transactions before: use a fresh chain or set DID_REGISTRY_ADDRESS)\n',
    );
    process.exit(1);
  }
  process.stdout.write(`${address}\n`);
} catch (err) {
  process.stderr.write(
    `deploy-did-registry: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
}
