import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
} from '@itp/errors';

/**
 * 401 with error.code "invalid_client" (RFC 6749 §5.2): relying-party credentials missing or
 * wrong. A code other than "401" lets the web server tell it from "still waiting" (docs/api.md §2).
 */
export class InvalidClientError extends UnauthorizedError {
  static override readonly code: string = 'invalid_client';
}

/** 400: the Basic client id holds a control character (docs/api.md §2.3), never looked up. */
export class MalformedClientIdError extends BadRequestError {
  constructor() {
    super('The client id (HTTP Basic) must not contain control characters');
  }
}

/**
 * 400 (docs/api.md §2.3): no such request for this caller — never made, made by another client,
 * timed out, cancelled or already used. One message for all, so it is no oracle.
 */
export class LoginRequestUnknownError extends BadRequestError {
  constructor(details?: Record<string, unknown>) {
    super('Login request was never made, has timed out or is no longer valid', { details });
  }
}

/** 401 (docs/api.md §2.3): the user application has not answered yet. */
export class LoginRequestPendingError extends UnauthorizedError {
  constructor() {
    super("Waiting for the user application's response");
  }
}

/** 429 with error.code "slow_down" (RFC 8628 §3.5 in spirit): a client polls too fast. */
export class SlowDownError extends TooManyRequestsError {
  static override readonly code: string = 'slow_down';
}

/** A VP that was already used for a login (docs/api.md §2: used once). */
export class VpReplayedError extends UnauthorizedError {
  constructor() {
    super('VP refused (replayed): this presentation was already used');
  }
}

/** 400 (docs/api.md §11): the text is not an EIP-4361 message; the message names what is wrong. */
export class SiweMalformedError extends BadRequestError {}

/**
 * 401 (docs/api.md §11): a well-formed Sign-In with Ethereum message that does not log anybody
 * in; the message says why (the caller is the signer: nothing here helps a stranger).
 */
export class SiweRefusedError extends UnauthorizedError {}

/** 404: unlink-address of an address that is not linked to the caller. */
export class AddressNotLinkedError extends NotFoundError {
  constructor() {
    super('This address is not linked to your account');
  }
}

/** 404: this deployment has no chain configured (ETH_RPC_URL and CHAIN_ID). */
export class SiweNotEnabledError extends NotFoundError {
  constructor() {
    super(
      'Sign-In with Ethereum is not enabled on this service (auth-service needs ETH_RPC_URL and CHAIN_ID)',
    );
  }
}

/** 409: link-address of an address that is linked to another user (one address, one user). */
export class AddressTakenError extends ConflictError {
  constructor() {
    super('This address is linked to another user; it must be unlinked there first');
  }
}

/** revoke-site (docs/api.md §12) for a site that holds no grant of the caller. */
export class NoSiteGrantError extends NotFoundError {
  constructor() {
    super('No site with that clientId holds a grant of yours (GET /v2/auth/account lists them)');
  }
}

/**
 * 400 (contract §14): no such presentation request for this client — never made, made by another
 * client, expired or already collected. One message for all, so it is no oracle.
 */
export class PresentationRequestUnknownError extends BadRequestError {
  constructor() {
    super('Presentation request was never made, has expired or is no longer valid');
  }
}

/** 401 (contract §14): the wallet has not answered the presentation request yet. */
export class PresentationRequestPendingError extends UnauthorizedError {
  constructor() {
    super("Waiting for the wallet's response");
  }
}

/** 400 (contract §14): a DCQL query this verifier does not take; the message says why. */
export class DcqlQueryRefusedError extends BadRequestError {}

/** 404: this deployment has no verifier key and certificate (VERIFIER_SIGNING_KEY). */
export class PresentationRequestsNotEnabledError extends NotFoundError {
  constructor() {
    super(
      'Presentation requests are not enabled on this service (auth-service needs VERIFIER_SIGNING_KEY and VERIFIER_CERTIFICATE_CHAIN)',
    );
  }
}
