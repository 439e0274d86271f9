import type { IKey, ManagedKeyInfo, MinimalImportableKey, TKeyType } from '@veramo/core';
import { AbstractKeyManagementSystem } from '@veramo/key-manager';
import {
  Signature,
  Transaction,
  TypedDataEncoder,
  computeAddress,
  getAddress,
  hashMessage,
  hexlify,
  isAddress,
  recoverAddress,
  sha256,
  toUtf8String,
  type TypedDataField,
} from 'ethers';
import { BadGatewayError, BadRequestError } from '@itp/errors';
import { DID_KEY_ALGORITHMS } from '@itp/schemas';
import type { WalletPort } from '../wallet/wallet-port.js';

/** Name of this key store in Veramo (`keys[].kms` of a holder DID). */
export const WALLET_KMS = 'wallet';

/**
 * A Veramo KMS whose keys live in token-rpc's wallet: importing a key stores only its public part
 * (kid = the address), signing sends a digest to the wallet's sign-digest and checks that the
 * answer recovers to the key's address. No private key ever reaches did-service
 * (docs/adr/0009-did-key-custody.md).
 */
export class WalletKeyManagementSystem extends AbstractKeyManagementSystem {
  constructor(private readonly wallet: WalletPort) {
    super();
  }

  async importKey(args: Exclude<MinimalImportableKey, 'kms'>): Promise<ManagedKeyInfo> {
    if (args.type !== 'Secp256k1') throw new BadRequestError('wallet keys are Secp256k1 keys');
    if (args.privateKeyHex)
      throw new BadRequestError('wallet keys are imported without a private key');
    const publicKeyHex = args.publicKeyHex?.toLowerCase() ?? '';
    if (!/^04[0-9a-f]{128}$/.test(publicKeyHex)) {
      throw new BadRequestError('wallet keys need their uncompressed public key');
    }
    const address = computeAddress(`0x${publicKeyHex}`);
    if (!args.kid || !isAddress(args.kid) || getAddress(args.kid) !== address) {
      throw new BadRequestError('the kid of a wallet key is the address of its public key');
    }
    return {
      kid: address,
      kms: WALLET_KMS,
      type: 'Secp256k1',
      publicKeyHex,
      meta: { algorithms: [...DID_KEY_ALGORITHMS] },
    };
  }

  /** Keys are listed by the key store; this KMS holds nothing of its own. */
  async listKeys(): Promise<ManagedKeyInfo[]> {
    return [];
  }

  async createKey(_args: {
    type: TKeyType;
    meta?: unknown;
    kid?: string;
  }): Promise<ManagedKeyInfo> {
    throw new BadRequestError('wallet keys are created by token-rpc (createAddress), not here');
  }

  /** Forgetting a wallet key here leaves the wallet untouched. */
  async deleteKey(_args: { kid: string }): Promise<boolean> {
    return true;
  }

  async sharedSecret(): Promise<string> {
    throw new BadRequestError('not_supported: wallet keys do not do key agreement');
  }

  async sign({
    keyRef,
    algorithm,
    data,
  }: {
    keyRef: Pick<IKey, 'kid'>;
    algorithm?: string;
    data: Uint8Array;
  }): Promise<string> {
    const address = getAddress(keyRef.kid);
    switch (algorithm ?? 'ES256K') {
      case 'ES256K':
      case 'ES256K-R': {
        // JOSE ES256K: ECDSA over SHA-256 of the signing input, r ‖ s (‖ recovery id), base64url.
        const signature = await this.signDigest(address, sha256(data));
        const parts = [signature.r, signature.s].map((h) => Buffer.from(h.slice(2), 'hex'));
        if (algorithm === 'ES256K-R') parts.push(Buffer.from([signature.yParity]));
        return Buffer.concat(parts).toString('base64url');
      }
      case 'eth_signMessage':
        return (await this.signDigest(address, hashMessage(data))).serialized;
      case 'eth_signTypedData':
      case 'EthereumEip712Signature2021': {
        const { domain, types, message } = parseTypedData(data);
        const digest = TypedDataEncoder.hash(domain, types, message);
        return (await this.signDigest(address, digest)).serialized;
      }
      case 'eth_signTransaction':
      case 'signTransaction':
      case 'signTx': {
        const transaction = Transaction.from(hexlify(data));
        if (transaction.from && getAddress(transaction.from) !== address) {
          throw new BadRequestError('eth_signTransaction: `from` is not the address of the key');
        }
        transaction.signature = await this.signDigest(address, transaction.unsignedHash);
        return transaction.serialized;
      }
      default:
        throw new BadRequestError(`not_supported: wallet keys cannot sign ${algorithm ?? ''}`);
    }
  }

  private async signDigest(address: string, digest: string): Promise<Signature> {
    const answer = await this.wallet.signDigest(address, digest);
    const signature = Signature.from({ r: answer.r, s: answer.s, v: 27 + answer.recoveryParam });
    if (recoverAddress(digest, signature) !== address) {
      throw new BadGatewayError('the wallet signature does not belong to the key');
    }
    return signature;
  }
}

function parseTypedData(data: Uint8Array): {
  domain: Record<string, unknown>;
  types: Record<string, TypedDataField[]>;
  message: Record<string, unknown>;
} {
  let parsed: unknown;
  try {
    parsed = JSON.parse(toUtf8String(data));
  } catch {
    parsed = undefined;
  }
  const { domain, types, message } = (parsed ?? {}) as Record<string, unknown>;
  if (!isObject(domain) || !isObject(types) || !isObject(message)) {
    throw new BadRequestError("eth_signTypedData needs JSON with 'domain', 'types' and 'message'");
  }
  const withoutDomain = { ...(types as Record<string, TypedDataField[]>) };
  delete withoutDomain.EIP712Domain;
  return { domain, types: withoutDomain, message };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
