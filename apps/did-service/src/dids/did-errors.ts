import { BadRequestError, ConflictError, ForbiddenError } from '@itp/errors';

/** create-did: the alias names another DID. */
export class AliasTakenError extends ConflictError {
  constructor(alias: string) {
    super(`The alias "${alias}" is already used by another DID`);
  }
}

/** The holder DID is bound to another user than the caller (contract §3). */
export class HolderOfAnotherUserError extends ForbiddenError {
  constructor() {
    super('The holder DID belongs to another user');
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
