import { BadRequestError, UnauthorizedError } from '@itp/errors';

/**
 * 400 (interface §7.1): no such request for this caller — never made, made by another client,
 * timed out, cancelled or already used. One message for all, so it is no oracle.
 */
export class LoginRequestUnknownError extends BadRequestError {
  constructor(details?: Record<string, unknown>) {
    super('Login request was never made, has timed out or is no longer valid', { details });
  }
}

/** 401 (interface §7.1): the user application has not answered yet. */
export class LoginRequestPendingError extends UnauthorizedError {
  constructor() {
    super("Waiting for the user application's response");
  }
}
