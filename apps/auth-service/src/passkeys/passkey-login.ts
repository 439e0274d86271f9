import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { clientGroup } from '@itp/service-kit';
import type { Authenticated, FailureLimit, LoginMethod } from '../login/login-method.js';
import type { FailureCounter } from '../rate-limit/failure-counter.js';
import type { UserRepository } from '../users/user-repository.js';
import { PasskeyRefusedError } from './passkey-errors.js';
import type { Passkeys } from './passkeys.js';

/** What a passkey login checks: the assertion (`credential.toJSON()`), from a client address. */
export interface PasskeyAssertion {
  response: AuthenticationResponseJSON;
  clientIp: string;
}

export interface PasskeyLoginDeps {
  passkeys: Passkeys;
  users: UserRepository;
  /** Per client address across all ways in (`login-ip`, shared with password and VP login). */
  failuresPerIp: FailureCounter;
  /** Per (passkey owner, client address): LOGIN_MAX_FAILURES_PER_ID, its own count. */
  failuresPerOwnerAndIp: FailureCounter;
}

/**
 * Passkey login (docs/api.md §13), the login method of `auth-user-with-passkey` and of the OpenID
 * Connect page's "Sign in with a passkey": a discoverable credential's assertion, its challenge
 * used once. Failures count like failed passwords: per client address (shared), and per (the
 * passkey's owner, client address) with a count of their own, so refused passkeys do not hold
 * the owner's password login. `amr`: `hwk` or `swk` (RFC 8176), with `user` and `mfa`.
 */
export class PasskeyLogin implements LoginMethod<PasskeyAssertion> {
  readonly id = 'passkey';
  readonly amr = 'hwk';

  constructor(private readonly deps: PasskeyLoginDeps) {}

  async failureLimits(input: PasskeyAssertion): Promise<readonly FailureLimit[]> {
    const client = clientGroup(input.clientIp);
    const owner = await this.deps.passkeys.ownerOf(input.response.id);
    return [
      { counter: this.deps.failuresPerIp, subject: client },
      ...(owner
        ? [
            {
              counter: this.deps.failuresPerOwnerAndIp,
              subject: `${owner}\u0000${client}`,
              resetOnSuccess: true,
            },
          ]
        : []),
    ];
  }

  async authenticate(input: PasskeyAssertion): Promise<Authenticated> {
    const verified = await this.deps.passkeys.verifyAssertion(input.response);
    // Checked here, not only by the login result: a disabled user's passkey is a counted failure.
    const user = await this.deps.users.findById(verified.userId);
    if (!user || !user.enabled) {
      throw new PasskeyRefusedError('Passkey refused: its user does not exist or is disabled');
    }
    return { user, userId: user.id, amr: verified.kind };
  }
}
