import { webcrypto } from 'node:crypto';

/**
 * Whether `signature` (a JOSE ES256 signature: raw r||s, base64url) signs `signingInput` (the
 * `header.payload` of a compact JWS, as received) under `key`. A key that is not a P-256 ECDSA key
 * gives false, never a throw.
 */
export async function verifyEs256(
  key: webcrypto.CryptoKey,
  signingInput: string,
  signature: string,
): Promise<boolean> {
  try {
    return await webcrypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      key,
      Buffer.from(signature, 'base64url'),
      Buffer.from(signingInput, 'ascii'),
    );
  } catch {
    return false;
  }
}
