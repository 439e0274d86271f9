import { SignJWT, type JWK } from 'jose';
import type { DcqlQuery } from 'dcql';
import { RESPONSE_ENCRYPTION_ENCS } from './ephemeral-encryption-key.js';
import type { VerifierIdentity } from './verifier-identity.js';

/** The request object's `aud` (OpenID4VP 1.0 §5.8: a wallet without metadata, static discovery). */
export const SELF_ISSUED_AUDIENCE = 'https://self-issued.me/v2';

/** The JWT `typ` of a request object (RFC 9101 §10.8). */
export const REQUEST_OBJECT_TYP = 'oauth-authz-req+jwt';

/**
 * What this verifier takes, with the member names of OpenID4VP 1.0 (final) Appendix B
 * (B.1.3.1.3 `alg_values`, B.2.3 `issuerauth_alg_values` / `deviceauth_alg_values` as COSE
 * algorithm numbers, B.3.4 `sd-jwt_alg_values` / `kb-jwt_alg_values`): ES256 for SD-JWT VCs and
 * mdocs (HAIP); this service's own W3C VCs are ES256K, signed by their holders ES256K, ES256 or
 * EdDSA (as did-service's login requests say).
 */
export const VP_FORMATS_SUPPORTED = {
  'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
  // COSE -7 = ES256 (issuer and device signatures).
  mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7] },
  jwt_vc_json: { alg_values: ['ES256K', 'ES256', 'EdDSA'] },
} as const;

export interface RequestObjectInput {
  responseUri: string;
  nonce: string;
  state: string;
  dcqlQuery: DcqlQuery.Output;
  encryptionJwk: JWK;
  /** Epoch ms. */
  now: number;
  expiresAt: number;
}

/**
 * The signed request object (RFC 9101, OpenID4VP 1.0 §5): x509_san_dns client, `direct_post.jwt`
 * to the response URI, the DCQL query, and the ephemeral key the response is encrypted to.
 */
export function signRequestObject(
  verifier: VerifierIdentity,
  input: RequestObjectInput,
): Promise<string> {
  const iat = Math.floor(input.now / 1000);
  return new SignJWT({
    client_id: verifier.clientId,
    response_type: 'vp_token',
    response_mode: 'direct_post.jwt',
    response_uri: input.responseUri,
    nonce: input.nonce,
    state: input.state,
    dcql_query: input.dcqlQuery,
    client_metadata: {
      vp_formats_supported: VP_FORMATS_SUPPORTED,
      jwks: { keys: [input.encryptionJwk] },
      encrypted_response_enc_values_supported: [...RESPONSE_ENCRYPTION_ENCS],
    },
  })
    .setProtectedHeader({ alg: 'ES256', typ: REQUEST_OBJECT_TYP, x5c: verifier.x5c })
    .setAudience(SELF_ISSUED_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(Math.max(iat + 1, Math.floor(input.expiresAt / 1000)))
    .sign(verifier.privateKey);
}
