import type { IKey, ManagedKeyInfo, MinimalImportableKey, TKeyType } from '@veramo/core';
import { AbstractKeyManagementSystem } from '@veramo/key-manager';
import { Signature, computeAddress, getAddress, isAddress, recoverAddress, sha256 } from 'ethers';
import { BadGatewayError, BadRequestError } from '@itp/errors';
import { DID_KEY_ALGORITHMS } from '@itp/schemas';
import type { WalletPort } from '../wallet/wallet-port.js';

/** `base64url(header).base64url(payload)`: what Veramo hands over to be signed for a JWS. */
const JWS_SIGNING_INPUT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Name of this key store in Veramo (`keys[].kms` of a holder DID). */
export const WALLET_KMS = 'wallet';

/**
 * A Veramo KMS whose keys live in token-rpc's wallet: importing a key stores only its public part
 * (kid = the address); signing sends the JWS signing input to the wallet's sign-jws (which signs
 * only an ES256K / ES256K-R JWS whose `iss` is the key's own DID) and checks that the answer
 * recovers to the key's address. Every other algorithm is refused: a holder key can never sign a
 * transaction or arbitrary data. No private key ever reaches did-service
 * (docs/adr/0009-did-key-custody.md, docs/security.md).
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
    const alg = algorithm ?? 'ES256K';
    if (alg !== 'ES256K' && alg !== 'ES256K-R') {
      // The wallet signs JWS for the key's own DID and nothing else (no transactions, no
      // messages, no typed data): see docs/security.md.
      throw new BadRequestError(
        `not_supported: wallet keys sign only ES256K / ES256K-R JWS, not ${alg}`,
      );
    }
    // Veramo hands over the JWS signing input (base64url(header).base64url(payload)) as bytes.
    const signingInput = Buffer.from(data).toString('utf8');
    if (!JWS_SIGNING_INPUT.test(signingInput)) {
      throw new BadRequestError('not_supported: wallet keys sign only JWS signing inputs');
    }
    const answer = await this.wallet.signJws(address, signingInput);
    const signature = Signature.from({ r: answer.r, s: answer.s, v: 27 + answer.recoveryParam });
    if (recoverAddress(sha256(data), signature) !== address) {
      throw new BadGatewayError('the wallet signature does not belong to the key');
    }
    // JOSE ES256K: r ‖ s (‖ recovery id for ES256K-R), base64url.
    const parts = [signature.r, signature.s].map((h) => Buffer.from(h.slice(2), 'hex'));
    if (alg === 'ES256K-R') parts.push(Buffer.from([signature.yParity]));
    return Buffer.concat(parts).toString('base64url');
  }
}
