import { UnauthorizedError } from '@itp/errors';
import type { User } from './user.js';

/** What a login other than the password rests on, as far as the account's epochs judge it. */
export interface LoginEvidence {
  /** Unix seconds: the earliest issuance time of the credentials presented (VP, OpenID4VP). */
  credentialIssuedAt?: number;
  /** Epoch ms: when the web-site login request was approved. */
  approvedAt?: number;
}

/** The refusal of a credential issued before the account's last reset. */
export const CREDENTIAL_ENDED_MESSAGE =
  'This credential was issued before the account was reset: it no longer logs in';

/** The refusal of a web-site login approved before the account's tokens were ended. */
export const APPROVAL_ENDED_MESSAGE =
  'This login was approved before the account was reset or logged out everywhere: log in again';

/**
 * A reset is a clean slate (docs/api.md §12): a credential issued before the key epoch no longer
 * logs in (even before did-service has set its status bit), and a web-site login approved before
 * the token epoch is not handed out.
 */
export function assertMayLogIn(user: User, evidence: LoginEvidence): void {
  if (
    evidence.credentialIssuedAt !== undefined &&
    evidence.credentialIssuedAt < user.keysValidAfter
  ) {
    throw new UnauthorizedError(CREDENTIAL_ENDED_MESSAGE, {
      details: { reason: 'credential issued before the key epoch' },
    });
  }
  if (evidence.approvedAt !== undefined && evidence.approvedAt < user.tokensValidAfter * 1000) {
    throw new UnauthorizedError(APPROVAL_ENDED_MESSAGE, {
      details: { reason: 'approved before the token epoch' },
    });
  }
}
