import type { SdJwtIssuerKey } from './sd-jwt-issuer-key.js';

/** The JSON-LD contexts of a DID document with JsonWebKey2020 verification methods. */
export const DID_WEB_CONTEXT = [
  'https://www.w3.org/ns/did/v1',
  'https://w3id.org/security/suites/jws-2020/v1',
] as const;

export interface DidWebDocument {
  '@context': readonly string[];
  id: string;
  verificationMethod: Array<{
    id: string;
    type: 'JsonWebKey2020';
    controller: string;
    publicKeyJwk: SdJwtIssuerKey['publicJwk'];
  }>;
  assertionMethod: string[];
}

/**
 * The issuer's did:web document (`GET /.well-known/did.json`): each key as a JsonWebKey2020
 * verification method `<did>#<thumbprint>` (its public JWK only), each one an assertion method
 * (it signs credentials). `keys`: the current key first, then the previous ones still published.
 */
export function didWebDocument(did: string, keys: readonly SdJwtIssuerKey[]): DidWebDocument {
  return {
    '@context': DID_WEB_CONTEXT,
    id: did,
    verificationMethod: keys.map((key) => ({
      id: key.kid,
      type: 'JsonWebKey2020',
      controller: did,
      publicKeyJwk: key.publicJwk,
    })),
    assertionMethod: keys.map((key) => key.kid),
  };
}
