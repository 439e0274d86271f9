import { InternalError } from '@itp/errors';
import { Wallet, computeAddress, getAddress, getCreateAddress } from 'ethers';
import ethrDidRegistry from 'ethr-did-registry';
import { createChainClient } from '@itp/chain';
import { createEthersProvider } from '@itp/chain/ethers';

const { bytecode, deployedBytecode } = ethrDidRegistry.EthereumDIDRegistry;

/** The ERC-1056 registry's runtime code, as the package's artifact has it (lower-case hex). */
export const DID_REGISTRY_RUNTIME_CODE: string = deployedBytecode.toLowerCase();

/**
 * Deploys the ERC-1056 EthereumDIDRegistry (from the ethr-did-registry package) and returns its
 * address. Idempotent: when the address of the deployer's nonce-0 deployment already holds the
 * registry (a restarted chain with kept state) nothing is sent. When it holds other code this
 * fails. When the deployer has already sent other transactions first, a new registry is deployed
 * at the next nonce's address on every call (the returned address says where).
 * Not safe to run twice at the same time with the same deployer.
 */
export async function deployDidRegistry(
  rpcUrl: string,
  deployerPrivateKey: string,
): Promise<string> {
  const deployer = computeAddress(deployerPrivateKey);
  const expected = getCreateAddress({ from: deployer, nonce: 0 });
  const client = createChainClient({ rpcUrl });
  try {
    const code = await client.request<string>('eth_getCode', [expected, 'latest']);
    if (code !== '0x') {
      if (code.toLowerCase() === DID_REGISTRY_RUNTIME_CODE) return expected;
      throw new InternalError(`${expected} already holds a contract that is not the DID registry`);
    }
    const provider = createEthersProvider(rpcUrl, await client.chainId());
    provider.pollingInterval = 250;
    try {
      const tx = await new Wallet(deployerPrivateKey, provider).sendTransaction({ data: bytecode });
      const receipt = await tx.wait(1, 60_000);
      if (receipt?.status !== 1 || !receipt.contractAddress) {
        throw new InternalError('DID registry deployment transaction failed');
      }
      return getAddress(receipt.contractAddress);
    } catch (err) {
      if (err instanceof InternalError) throw err;
      const reason = (err as { shortMessage?: unknown }).shortMessage;
      throw new InternalError(
        `DID registry deployment failed: ${typeof reason === 'string' ? reason : 'unknown error'}`,
        { cause: err },
      );
    } finally {
      provider.destroy();
    }
  } finally {
    await client.close();
  }
}
