/** The DCQL credential query of this service's authorization requests for its jwt_vc_json VC. */
export const ITP_CREDENTIAL_QUERY_ID = 'itp_credential';

/**
 * The other option of the login's DCQL query: this service's SD-JWT VC (contract §15), checked by
 * auth-service against its own issuers (auth-service's oid4vp/own-sd-jwt-vc-check.ts names the
 * same id: apps never import apps).
 */
export const ITP_SD_JWT_QUERY_ID = 'itp_sd_jwt';

/** The algorithms of an SD-JWT VC presentation: the issuer's (HAIP) and the key binding's. */
export const SD_JWT_ALG_VALUES = ['ES256'] as const;

/** The VC types asked for: what create-vc issues (`VerifiableCredential`, `Profile`). */
export const ITP_CREDENTIAL_TYPES = ['VerifiableCredential', 'Profile'] as const;

/** The client id prefix of a verifier identified by its DID (OpenID4VP 1.0 §5.9.3). */
export const DID_CLIENT_ID_PREFIX = 'decentralized_identifier:';

/** The request object's `aud` for a wallet that is not known in advance (OpenID4VP 1.0 §5.8). */
export const SELF_ISSUED_AUDIENCE = 'https://self-issued.me/v2';

/**
 * The JWS algorithms accepted in a `jwt_vc_json` presentation (OpenID4VP 1.0 §5.1 / Appendix B.1.3):
 * the VCs of this service are ES256K; a holder signs its VP ES256K (did:ethr, did:key secp256k1),
 * ES256 (did:jwk / did:key P-256) or EdDSA (did:key Ed25519).
 */
export const JWT_VC_JSON_ALG_VALUES = ['ES256K', 'ES256', 'EdDSA'] as const;

/**
 * The request object's `client_metadata` (OpenID4VP 1.0 §5.1; required with the
 * `decentralized_identifier` client id prefix, §5.9.3): the formats and algorithms this verifier
 * accepts.
 */
export function itpClientMetadata(withSdJwt = false) {
  return {
    vp_formats_supported: {
      jwt_vc_json: { alg_values: [...JWT_VC_JSON_ALG_VALUES] as [string, ...string[]] },
      ...(withSdJwt
        ? {
            'dc+sd-jwt': {
              'sd-jwt_alg_values': [...SD_JWT_ALG_VALUES] as [string, ...string[]],
              'kb-jwt_alg_values': [...SD_JWT_ALG_VALUES] as [string, ...string[]],
            },
          }
        : {}),
    },
  };
}

/**
 * The VC types asked for after JSON-LD expansion (OpenID4VP 1.0 Appendix B.1.1: `type_values` are
 * the fully expanded types): with the context of the VCs of this service (VCDM 1.1),
 * `VerifiableCredential` expands to this IRI; `Profile` is no term of it and stays `Profile`.
 */
export const ITP_CREDENTIAL_EXPANDED_TYPES = [
  'https://www.w3.org/2018/credentials#VerifiableCredential',
  'Profile',
] as const;

/**
 * The DCQL query of this service's authorization requests: one jwt_vc_json credential. Two
 * alternatives of `type_values`: the types as written (what @openid4vc's dcql and most wallets
 * compare) and as expanded (what a strict wallet compares, Appendix B.1.1); one of them is enough.
 */
export function itpDcqlQuery() {
  return {
    credentials: [
      {
        id: ITP_CREDENTIAL_QUERY_ID,
        format: 'jwt_vc_json' as const,
        meta: { type_values: [[...ITP_CREDENTIAL_TYPES], [...ITP_CREDENTIAL_EXPANDED_TYPES]] },
      },
    ],
  };
}

/**
 * The DCQL query of a login's authorization request: this service's jwt_vc_json VC (as
 * itpDcqlQuery) or, with `profileVct`, its SD-JWT VC of that `vct` — one of the two
 * (`credential_sets` with one option each, OpenID4VP 1.0 §6.2). The jwt_vc_json option comes
 * first: a wallet holding both presents it, as before.
 */
export function itpLoginDcqlQuery(profileVct?: string) {
  const jwt = itpDcqlQuery();
  if (profileVct === undefined) return jwt;
  return {
    credentials: [
      ...jwt.credentials,
      {
        id: ITP_SD_JWT_QUERY_ID,
        format: 'dc+sd-jwt' as const,
        meta: { vct_values: [profileVct] },
      },
    ],
    credential_sets: [{ options: [[ITP_CREDENTIAL_QUERY_ID], [ITP_SD_JWT_QUERY_ID]] }],
  };
}
