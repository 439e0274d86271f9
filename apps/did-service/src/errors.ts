import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError } from '@itp/errors';

/**
 * The business failures of the DID API. Each is a BaseError from @itp/errors, turned into
 * `{ error: { code, message } }` only at the edge (service-kit's error handler); the codes and when
 * each is answered are in DID_ERRORS (@itp/schemas), the catalog the README table comes from.
 */

/**
 * create-vc / create-vp for a holder DID that is not bound to the caller: unbound, or bound to
 * another user (docs/api.md §3). The message says how to bind it.
 */
export class HolderNotBoundError extends ForbiddenError {
  constructor(did: string) {
    super(
      `holder ${did} is not bound to you: bind it with create-did, sending its address and ` +
        'secretKey together with your Authorization: Bearer token',
    );
  }
}

/** A holder DID that create-did did not make. */
export class UnknownHolderError extends BadRequestError {
  constructor(did: string) {
    super(`holder ${did} is not a DID created by this service (create-did)`);
  }
}

export class NotAnIssuerError extends BadRequestError {
  constructor(did: string) {
    super(`issuer ${did} is not an issuer DID of this service (GET /v2/did/issuers)`);
  }
}

export class NotAVerifierError extends BadRequestError {
  constructor(did: string) {
    super(`verifier ${did} is not a verifier DID of this service (GET /v2/did/verifiers)`);
  }
}

/** A JWT's user was disabled (or removed) after the token was issued. */
export class DisabledUserError extends UnauthorizedError {
  constructor() {
    super('This user is disabled: the token no longer authorises changes');
  }
}

/** revoke-vc: a VC this service cannot revoke (not its own, or without its status entry). */
export class NotRevocableError extends BadRequestError {}

/** revoke-vc: the VC was issued to another user than the bearer's. */
export class NotYourCredentialError extends ForbiddenError {
  constructor() {
    super('This credential was issued to another user: only that user can revoke it');
  }
}

/** GET /v2/did/status-lists/<listId> of a list that does not exist (or a malformed id). */
export class StatusListNotFoundError extends NotFoundError {
  constructor() {
    super('No such status list');
  }
}
