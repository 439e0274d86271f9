import { ServiceUnavailableError } from '@itp/errors';
import {
  createPublicClient,
  hashMessage,
  http,
  isAddressEqual,
  numberToHex,
  recoverMessageAddress,
  type Hex,
  type PublicClient,
  type Transport,
} from 'viem';
import { verifyHash } from 'viem/actions';

/** Checks that `signature` over an EIP-4361 message is `address`'s. */
export interface SiweSignatureVerifier {
  /**
   * True when `signature` is an ECDSA signature of the message (EIP-191) by `address`'s key:
   * recovered here, no chain call.
   */
  isKeySignature(address: Hex, message: string, signature: Hex): Promise<boolean>;
  /**
   * True when the chain accepts the signature for `address` (an eth_call, gas-capped): the
   * account's contract (ERC-1271), or the contract an ERC-6492 signature would deploy.
   * ServiceUnavailableError when the chain cannot be asked.
   */
  verifyOnChain(address: Hex, message: string, signature: Hex): Promise<boolean>;
}

/**
 * Gas of every eth_call a smart-account check makes (docs/api.md §11): an ERC-6492 signature
 * names a factory and calldata the node runs before asking the account, so without a cap a
 * caller chooses how much work the chain node does (up to its own call gas cap, often 50
 * million). 5 million leaves room for real accounts: a factory deployment of a proxy account
 * and a P-256 (passkey) check in Solidity take well under 2 million.
 */
export const SIWE_CONTRACT_CHECK_GAS = 5_000_000;

export interface ChainSiweSignatureVerifierOptions {
  rpcUrl: string;
  timeoutMs: number;
  /** Gas of each eth_call (default SIWE_CONTRACT_CHECK_GAS). */
  gas?: number;
}

/** `transport` with `gas` set on every eth_call it sends (whatever path of viem made it). */
export function gasCappedTransport(transport: Transport, gas: number): Transport {
  const cap = numberToHex(gas);
  return (params) => {
    const inner = transport(params);
    const request = ((args: { method: string; params?: unknown }, options?: unknown) => {
      if (args.method === 'eth_call' && Array.isArray(args.params)) {
        const [call, ...rest] = args.params as unknown[];
        if (typeof call === 'object' && call !== null) {
          return inner.request(
            { ...args, params: [{ ...call, gas: cap }, ...rest] } as never,
            options as never,
          );
        }
      }
      return inner.request(args as never, options as never);
    }) as typeof inner.request;
    return { ...inner, request };
  };
}

/**
 * ECDSA recovery here, and viem's verifyHash on the configured chain for the rest. A key-holding
 * account's signature is recovered locally: it logs in without a chain call, also while the chain
 * node is down. Anything else is asked of the chain: ERC-6492's universal validator, run as an
 * `eth_call` without deploying anything, answers for deployed ERC-1271 accounts and for
 * counterfactual ones alike; every eth_call carries `gas` (SIWE_CONTRACT_CHECK_GAS), so an
 * account or factory that burns gas is refused when it runs out, not run for as long as the node
 * allows.
 */
export class ChainSiweSignatureVerifier implements SiweSignatureVerifier {
  private readonly client: PublicClient;

  constructor(options: ChainSiweSignatureVerifierOptions) {
    this.client = createPublicClient({
      transport: gasCappedTransport(
        http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: 0 }),
        options.gas ?? SIWE_CONTRACT_CHECK_GAS,
      ),
    });
  }

  async isKeySignature(address: Hex, message: string, signature: Hex): Promise<boolean> {
    try {
      return isAddressEqual(address, await recoverMessageAddress({ message, signature }));
    } catch {
      return false; // not a 65-byte ECDSA signature (e.g. ERC-6492-wrapped)
    }
  }

  async verifyOnChain(address: Hex, message: string, signature: Hex): Promise<boolean> {
    let valid: boolean;
    try {
      valid = await verifyHash(this.client, { address, hash: hashMessage(message), signature });
    } catch (err) {
      throw chainUnavailable(err);
    }
    if (valid) return true;
    // viem answers false also when its eth_call failed for any reason, a node that cannot be
    // reached included: a "no" is only believed from a node that answers.
    try {
      await this.client.getChainId();
    } catch (err) {
      throw chainUnavailable(err);
    }
    return false;
  }
}

function chainUnavailable(cause: unknown): ServiceUnavailableError {
  return new ServiceUnavailableError(
    'The chain node cannot be asked about this smart-account signature; try again later',
    { cause },
  );
}
