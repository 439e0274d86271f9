import type { FailureCounter } from '../rate-limit/failure-counter.js';
import type { LoginEvidence } from '../users/account-rules.js';
import type { User } from '../users/user.js';
import type { Amr } from './login-history.js';

/** Who a login method authenticated, and how (ADR 0028). */
export interface Authenticated {
  userId: string;
  /** How, as RFC 8176 names it (the token's and the OpenID Connect login's `amr`). */
  amr: Amr;
  /**
   * The user as the method loaded and checked it (exists, enabled). Absent: the login result
   * loads and checks it (with `evidence` against the account's epochs).
   */
  user?: User;
  /** What the login rests on, for the account's epochs (docs/api.md §12). */
  evidence?: LoginEvidence;
}

/** A failure limit an attempt is held by: checked before it, counted when it is refused. */
export interface FailureLimit {
  counter: FailureCounter;
  /** What is counted: a client address group, an (account, client address) pair. */
  subject: string;
  /** A success clears the subject's count (per (account, client): the owner starts afresh). */
  resetOnSuccess?: boolean;
}

/**
 * The port every way of logging in implements (ADR 0028): password, Sign-In with Ethereum, a
 * verifiable presentation, an approved web-site login request. attemptLogin runs it under its
 * failure limits; LoginResults turns what it authenticated into the login result (a token, or
 * the OpenID Connect provider's login with `amr`). A new way in (passkeys) is a new folder with
 * one LoginMethod and its wire-<feature>.ts, and one registration line in app.ts.
 */
export interface LoginMethod<Input, Result extends Authenticated = Authenticated> {
  /** Its name among the registered methods (what the OpenID Connect login page offers). */
  readonly id: string;
  /** The `amr` of its logins (an approved login request carries its approval's own). */
  readonly amr: Amr;
  /** The limits of this attempt, in the order they are checked. */
  failureLimits(input: Input): Promise<readonly FailureLimit[]>;
  /** Which refusals count as failures (default: UnauthorizedError, 401). */
  isFailure?(err: unknown): boolean;
  /** The credential check itself: the user, or an error (a 401 for a refused credential). */
  authenticate(input: Input): Promise<Result>;
}
