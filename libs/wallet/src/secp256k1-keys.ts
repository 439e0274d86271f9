/**
 * The secp256k1 key helpers of a did:ethr holder and of a verifier of ES256K JWS: the only place
 * that turns such a key into a JWK or an address, and recovers the public key of a signature.
 */
import type { Jwk } from '@openid4vc/oauth2';
import { Openid4vpWalletError } from './wallet-error.js';
import { walletPackages } from './wallet-packages.js';

/** 64 hex digits of a private key (`0x` optional, surrounding whitespace ignored), or a refusal. */
export function privateKeyHex(privateKey: string): string {
  const hex = privateKey.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new Openid4vpWalletError(
      'the holder key must be a secp256k1 private key: 64 hex digits',
      'invalid_key',
    );
  }
  return hex;
}

/** The holder's did:ethr DID of a hex private key: `did:ethr:<checksummed address>`. */
export async function holderDid(privateKey: string): Promise<string> {
  const hex = privateKeyHex(privateKey);
  return `did:ethr:${(await walletPackages()).ethers.computeAddress(`0x${hex}`)}`;
}

/** The public JWK (`kty` EC, `crv` secp256k1) of a public key in hex, compressed or not. */
export async function secp256k1PublicJwk(publicKeyHex: string): Promise<Jwk> {
  const { SigningKey } = (await walletPackages()).ethers;
  const uncompressed = SigningKey.computePublicKey(`0x${publicKeyHex.replace(/^0x/i, '')}`, false);
  const point = Buffer.from(uncompressed.slice(4), 'hex'); // after 0x04: x ‖ y
  return {
    kty: 'EC',
    crv: 'secp256k1',
    x: point.subarray(0, 32).toString('base64url'),
    y: point.subarray(32).toString('base64url'),
  };
}

/** The public JWK of a hex private key (`0x` optional). */
export async function secp256k1JwkOfPrivateKey(privateKey: string): Promise<Jwk> {
  const { SigningKey } = (await walletPackages()).ethers;
  return secp256k1PublicJwk(new SigningKey(`0x${privateKeyHex(privateKey)}`).publicKey);
}

/**
 * The public key (as a JWK) that made an ES256K JWS (r ‖ s over SHA-256, no recovery byte): of
 * the two keys the signature recovers to, the one whose Ethereum address is `address` (did:ethr's
 * controller is an address, not a key); undefined when neither is.
 */
export async function recoverSignerJwk(compact: string, address: string): Promise<Jwk | undefined> {
  const { sha256, Signature, SigningKey, computeAddress } = (await walletPackages()).ethers;
  const [header, payload, signature] = compact.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return undefined;
  const rs = Buffer.from(signature, 'base64url');
  if (rs.length !== 64) return undefined;
  const digest = sha256(Buffer.from(`${header}.${payload}`));
  for (const yParity of [0, 1] as const) {
    const sig = Signature.from({
      r: `0x${rs.subarray(0, 32).toString('hex')}`,
      s: `0x${rs.subarray(32).toString('hex')}`,
      yParity,
    });
    let publicKey: string;
    try {
      publicKey = SigningKey.recoverPublicKey(digest, sig);
    } catch {
      return undefined;
    }
    if (computeAddress(publicKey).toLowerCase() === address.toLowerCase()) {
      return secp256k1PublicJwk(publicKey);
    }
  }
  return undefined;
}
