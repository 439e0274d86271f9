import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import type { SdJwtIssuerKey } from './sd-jwt-issuer-key.js';

/**
 * @sd-jwt/sd-jwt-vc set up to issue with an SD-JWT issuer key: ES256 signatures by the key,
 * SHA-256 disclosure digests, 128-bit salts (what OpenID4VCI issuance signs with, and the specs'
 * test credentials).
 */
export function sdJwtVcSigner(key: Pick<SdJwtIssuerKey, 'sign'>): SDJwtVcInstance {
  return new SDJwtVcInstance({
    signer: (signingInput) => key.sign(signingInput),
    signAlg: 'ES256',
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
  });
}
