import { errors } from 'oidc-provider';
import { BaseError } from '@itp/errors';

/** A store outage inside the provider: 503 temporarily_unavailable, never a 500. */
export class OidcUnavailableError extends errors.OIDCProviderError {
  constructor(cause?: unknown) {
    super(503, 'temporarily_unavailable', { cause });
    this.expose = true;
    (this as { error_description?: string }).error_description =
      'The service is temporarily unavailable; try again later';
  }
}

/** Runs `call`, turning a store outage (503 of @itp/errors) into OidcUnavailableError. */
export async function unlessUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof BaseError && err.status === 503) throw new OidcUnavailableError(err);
    throw err;
  }
}
