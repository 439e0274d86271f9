import { UnauthorizedError } from '@itp/errors';

/**
 * 401 with error.code "invalid_client" (RFC 6749 §5.2): relying-party credentials missing or
 * wrong. A code other than "401" lets the web server tell it from "still waiting" (contract §2).
 */
export class InvalidClientError extends UnauthorizedError {
  static override readonly code: string = 'invalid_client';
}
