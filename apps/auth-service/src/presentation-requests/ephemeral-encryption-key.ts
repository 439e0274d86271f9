import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

/** The response encryption (OpenID4VP 1.0 §8.3, HAIP): ECDH-ES on P-256. */
export const RESPONSE_ENCRYPTION_ALG = 'ECDH-ES';
export const RESPONSE_ENCRYPTION_ENCS = ['A128GCM', 'A256GCM'] as const;

export interface EphemeralEncryptionKey {
  /** The public JWK the request object names (kid, use enc, alg ECDH-ES). */
  publicJwk: JWK & { kid: string };
  /** The private JWK, sealed with the sealing key: what the store keeps. */
  sealed: string;
}

/**
 * Seals the ephemeral private keys at rest (AES-256-GCM): its key is derived (HKDF-SHA-256)
 * from the verifier's signing key, so a Redis dump alone does not decrypt the wallets' answers.
 */
export class KeySealer {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(
      hkdfSync(
        'sha256',
        createHash('sha256').update(secret).digest(),
        '',
        'itp presentation-request key',
        32,
      ),
    );
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  open(sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** A fresh ECDH-ES P-256 key pair for one request; its kid is its RFC 7638 thumbprint. */
export async function newEphemeralEncryptionKey(
  sealer: KeySealer,
): Promise<EphemeralEncryptionKey> {
  const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', {
    crv: 'P-256',
    extractable: true,
  });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  return {
    publicJwk: { ...publicJwk, kid, use: 'enc', alg: RESPONSE_ENCRYPTION_ALG },
    sealed: sealer.seal(JSON.stringify(await exportJWK(privateKey))),
  };
}

/** The RFC 7638 SHA-256 thumbprint bytes of a public JWK (the mdoc session transcript's). */
export async function jwkThumbprintBytes(jwk: JWK): Promise<Uint8Array> {
  return new Uint8Array(Buffer.from(await calculateJwkThumbprint(jwk, 'sha256'), 'base64url'));
}
