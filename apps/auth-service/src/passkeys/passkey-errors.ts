import { BadRequestError, ConflictError, NotFoundError, UnauthorizedError } from '@itp/errors';

/**
 * 401 (docs/api.md §13): a passkey assertion that logs nobody in — its challenge used or expired,
 * an unknown or removed passkey, a signature or counter that does not verify. The message says
 * which (the caller holds the assertion: nothing here helps a stranger). Counted like a failed
 * password.
 */
export class PasskeyRefusedError extends UnauthorizedError {}

/** 400 (docs/api.md §13): a registration response that does not verify; the message says why. */
export class PasskeyRegistrationError extends BadRequestError {}

/** 409: the passkey is registered already, or the user has the most passkeys allowed. */
export class PasskeyConflictError extends ConflictError {}

/** 404: passkeys/remove of an id that is not one of the caller's passkeys. */
export class PasskeyNotFoundError extends NotFoundError {
  constructor() {
    super('No passkey of yours has this id (GET /v2/auth/account lists them)');
  }
}
