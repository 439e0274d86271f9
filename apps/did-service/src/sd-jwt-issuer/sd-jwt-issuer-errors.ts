import { BadRequestError, NotFoundError } from '@itp/errors';

/**
 * `sd-jwt-issuer import` / `renew-certificate` refused a key or chain: the message says which
 * check failed (curve, leaf key, chain, SAN) and never holds key material.
 */
export class SdJwtIssuerImportError extends BadRequestError {}

/** `GET /v2/did/oid4vci/issuer-ca.pem` outside development or once an issuer key is imported. */
export class IssuerCaNotServedError extends NotFoundError {
  constructor() {
    super(
      'No dev CA is served: the SD-JWT VC issuer uses an operator-imported key and chain (its trust anchor comes from the operator)',
    );
  }
}

/** `GET /.well-known/did.json` while SD-JWT VC issuance is off (no issuer key). */
export class NoIssuerDidError extends NotFoundError {
  constructor() {
    super('No did:web is published: SD-JWT VC issuance is off (no issuer key imported)');
  }
}
