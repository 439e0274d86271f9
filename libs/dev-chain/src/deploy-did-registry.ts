import { InternalError } from '@itp/errors';
import { Wallet, computeAddress, getAddress, getCreateAddress } from 'ethers';
import ethrDidRegistry from 'ethr-did-registry';
import { createChainClient } from '@itp/chain';
import { createEthersProvider } from '@itp/chain/ethers';

const { bytecode, deployedBytecode } = ethrDidRegistry.EthereumDIDRegistry;

/** How long the deployment may take to be mined (a dev chain mines at once). */
const RECEIPT_TIMEOUT_MS = 60_000;

interface RpcReceipt {
  status?: string;
  contractAddress?: string | null;
}

/**
 * The receipt of `hash`, asked for until it exists. Not ethers' `tx.wait()`: when its first look
 * comes before the transaction is visible, it waits for the next block, and a dev chain that
 * mines on demand makes none while idle (the wait then times out although the deployment was
 * mined).
 */
async function receiptOf(
  client: ReturnType<typeof createChainClient>,
  hash: string,
  timeoutMs: number,
): Promise<RpcReceipt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await client.request<RpcReceipt | null>('eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    if (Date.now() > deadline) {
      throw Object.assign(new Error('no receipt'), {
        shortMessage: `no receipt within ${timeoutMs / 1000} s`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

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
      const receipt = await receiptOf(client, tx.hash, RECEIPT_TIMEOUT_MS);
      if (receipt.status !== '0x1' || !receipt.contractAddress) {
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
