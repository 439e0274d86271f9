import { errors } from 'jose';
import { BaseError, ServiceUnavailableError, UnauthorizedError } from '@itp/errors';

/** Thrown by the key resolver wrapper when the key set itself could not be obtained. */
export class KeySetUnavailableError extends ServiceUnavailableError {
  constructor(cause: unknown) {
    super('The token signing keys (JWKS) are unavailable', { cause });
  }
}

/** Why a token was refused, for logs only (the client always sees one generic message). */
function reason(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) return `claim ${err.claim} ${err.reason}`;
  if (err instanceof errors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (err instanceof errors.JWKSNoMatchingKey) return 'no matching key';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'bad signature';
  if (err instanceof errors.JOSEError) return err.code;
  return 'malformed';
}

/**
 * Turns whatever verifying a token threw into a BaseError: anything about the token is a 401
 * with one generic message (no hint for an attacker); a key set that could not be fetched is a
 * 503 (the token may be fine; the caller should not be told to log in again).
 */
export function toAuthError(err: unknown): BaseError {
  if (err instanceof BaseError) return err;
  return new UnauthorizedError('Invalid or expired token', {
    cause: err,
    details: { reason: reason(err) },
  });
}
