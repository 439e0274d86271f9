import { BadRequestError } from '@itp/errors';

/** The error codes the OpenID4VCI endpoints answer (RFC 6749 §5.2, RFC 6750 §3.1, OpenID4VCI 1.0 §8.3.1). */
export type Oid4vciErrorCode =
  | 'invalid_request'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'invalid_token'
  | 'invalid_credential_request'
  | 'unknown_credential_configuration'
  | 'unknown_credential_identifier'
  | 'credential_request_denied'
  | 'invalid_proof'
  | 'invalid_nonce'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  | 'temporarily_unavailable'
  | 'server_error';

export interface Oid4vciErrorBody {
  error: string;
  error_description: string;
}

/**
 * A refusal of the OpenID4VCI endpoints (`/v2/did/oid4vci/*`, the credential offer GET), answered
 * in the OAuth error shape `{ error, error_description }` that wallets read, never the REST error
 * body of the other `/v2/did` routes. The OpenID4VCI router renders it.
 */
export class Oid4vciError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 413 | 500 | 503,
    readonly error: Oid4vciErrorCode | string,
    readonly description: string,
    readonly options: {
      /** A fresh server nonce for the `DPoP-Nonce` header (RFC 9449 §8, §9). */
      dpopNonce?: string;
      /** The scheme a 401's `WWW-Authenticate` names: DPoP for a DPoP-bound token (RFC 9449 §7.1). */
      scheme?: 'Bearer' | 'DPoP';
    } = {},
  ) {
    super(description);
    this.name = 'Oid4vciError';
  }

  get body(): Oid4vciErrorBody {
    return { error: this.error, error_description: this.description };
  }
}

export const invalidGrant = (description = 'The pre-authorized code is unknown, used or expired') =>
  new Oid4vciError(400, 'invalid_grant', description);

export const invalidNonce = (
  description = 'The proof needs a fresh c_nonce from the nonce endpoint',
) => new Oid4vciError(400, 'invalid_nonce', description);

export const invalidToken = (description = 'The access token is unknown, used or expired') =>
  new Oid4vciError(401, 'invalid_token', description);

/**
 * POST /v2/did/credential-offer with `format: "dc+sd-jwt"` while this did-service has no SD-JWT
 * issuer key (docs/api.md §15): a REST 400 (DID_ERRORS.sdJwtUnavailable), not the OAuth shape.
 */
export class SdJwtIssuanceUnavailableError extends BadRequestError {
  constructor() {
    super('This service issues no SD-JWT VCs (no SD-JWT issuer key): ask for format jwt_vc_json');
  }
}
