import type { OAuthErrorBody, OAuthErrorCode } from '@itp/schemas';

/**
 * A refusal of the OpenID4VP endpoints, answered in the OAuth error shape (RFC 6749 §5.2,
 * OpenID4VP 1.0 §8.5) `{ error, error_description }` instead of the service's REST error body:
 * wallets read these. The OpenID4VP router renders it; it never reaches the REST error handler.
 */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 404 | 413 | 500 | 502 | 503,
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** Seconds, for a 503. */
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  get body(): OAuthErrorBody {
    return { error: this.error, error_description: this.description };
  }
}

/** The one description of a refused presentation: nothing about the user or the reason. */
export const ACCESS_DENIED_DESCRIPTION = 'The presentation was not accepted';

export const accessDenied = (): OAuthError =>
  new OAuthError(400, 'access_denied', ACCESS_DENIED_DESCRIPTION);
