import { ServiceUnavailableError } from '@itp/errors';
import { createPublicClient, hashMessage, http, type Hex, type PublicClient } from 'viem';
import { verifyHash } from 'viem/actions';

/** Checks that `signature` over an EIP-4361 message is `address`'s. */
export interface SiweSignatureVerifier {
  /**
   * True when the address signed the message (EIP-191): recovered from an ECDSA signature, or
   * accepted by the account's contract (ERC-1271), or by the contract an ERC-6492 signature would
   * deploy. ServiceUnavailableError when the chain is needed and cannot be asked.
   */
  verify(address: Hex, message: string, signature: Hex): Promise<boolean>;
}

export interface ChainSiweSignatureVerifierOptions {
  rpcUrl: string;
  timeoutMs: number;
}

/**
 * viem's verifyHash on the configured chain. An ECDSA signature of the address is recovered
 * locally first (mode `eoa`): a key-holding account logs in without a chain call, also while the
 * chain node is down. Anything else is asked of the chain: ERC-6492's universal validator, run as
 * an `eth_call` without deploying anything, answers for deployed ERC-1271 accounts and for
 * counterfactual ones alike.
 */
export class ChainSiweSignatureVerifier implements SiweSignatureVerifier {
  private readonly client: PublicClient;

  constructor(options: ChainSiweSignatureVerifierOptions) {
    this.client = createPublicClient({
      transport: http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: 0 }),
    });
  }

  async verify(address: Hex, message: string, signature: Hex): Promise<boolean> {
    let valid: boolean;
    try {
      valid = await verifyHash(this.client, {
        address,
        hash: hashMessage(message),
        signature,
        mode: 'eoa',
      });
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
