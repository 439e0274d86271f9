/** The one DCQL credential query of this service's authorization requests. */
export const ITP_CREDENTIAL_QUERY_ID = 'itp_credential';

/** The VC types asked for: what create-vc issues (`VerifiableCredential`, `Profile`). */
export const ITP_CREDENTIAL_TYPES = ['VerifiableCredential', 'Profile'] as const;

/** The client id prefix of a verifier identified by its DID (OpenID4VP 1.0 §5.9.3). */
export const DID_CLIENT_ID_PREFIX = 'decentralized_identifier:';

/** The request object's `aud` for a wallet that is not known in advance (OpenID4VP 1.0 §5.8). */
export const SELF_ISSUED_AUDIENCE = 'https://self-issued.me/v2';

/** The DCQL query of this service's authorization requests: one jwt_vc_json credential. */
export function itpDcqlQuery() {
  return {
    credentials: [
      {
        id: ITP_CREDENTIAL_QUERY_ID,
        format: 'jwt_vc_json' as const,
        meta: { type_values: [[...ITP_CREDENTIAL_TYPES]] },
      },
    ],
  };
}
