import { UnauthorizedError, type BaseErrorOptions } from '@itp/errors';

/**
 * A wallet's presentation (SD-JWT VC or mdoc) was refused. `rule` names the check that failed
 * ('issuer_untrusted', 'key_binding_nonce', 'revoked', …: each format's README section lists its
 * rules). A refused presentation is a refused credential: HTTP 401, like a wrong password; the
 * message says which rule failed and never holds key material.
 */
export class PresentationRefusedError extends UnauthorizedError {
  readonly rule: string;

  constructor(rule: string, message: string, options?: BaseErrorOptions) {
    super(message, options);
    this.rule = rule;
  }
}
