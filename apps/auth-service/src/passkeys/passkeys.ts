import { createHash } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeySummary } from '@itp/schemas';
import type { User } from '../users/user.js';
import { clientDataChallenge } from './client-data-challenge.js';
import type { PasskeyChallenges } from './passkey-challenges.js';
import { PASSKEY_CHALLENGE_TTL_MS } from './passkey-challenges.js';
import {
  PasskeyConflictError,
  PasskeyNotFoundError,
  PasskeyRefusedError,
  PasskeyRegistrationError,
} from './passkey-errors.js';
import type { PasskeyRepository } from './passkey-repository.js';
import { summaryOf, type Passkey } from './passkey.js';

/** The most passkeys one user may hold (each registration is a row a user can make). */
export const MAX_PASSKEYS_PER_USER = 20;

/** The relying party the passkeys are for (docs/api.md §13): PUBLIC_URL's host and origin. */
export interface RelyingParty {
  /** The RP id: PUBLIC_URL's host name (`localhost` in development). */
  id: string;
  /** PUBLIC_URL's origin: where the browser must have run the ceremony. */
  origin: string;
  /** The name authenticators show (LOGIN_PAGE_PRODUCT_NAME or the service's). */
  name: string;
}

/**
 * RFC 8176 `amr` of a passkey login: `swk` for a synced passkey (a software-protected key that
 * leaves the device), `hwk` for one bound to its device; with user verification (always required
 * here) also `user` and `mfa` (something held and something known or been).
 */
export type PasskeyKind = 'hwk' | 'swk';

/** A verified passkey assertion (user verification is required): whose, and how its key is kept. */
export interface VerifiedPasskey {
  userId: string;
  kind: PasskeyKind;
}

export interface PasskeysDeps {
  passkeys: PasskeyRepository;
  challenges: PasskeyChallenges;
  rp: RelyingParty;
  clock?: () => number;
}

/**
 * Passkeys (WebAuthn Level 3, docs/api.md §13) through @simplewebauthn/server: registration of
 * discoverable credentials with user verification, their list and removal, and the check of a
 * login assertion (one-time challenge, signature, counter). Who may call what (Bearer, step-up,
 * limits) is the router's and the login method's.
 */
export class Passkeys {
  private readonly clock: () => number;

  constructor(private readonly deps: PasskeysDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  /** Creation options for `user`: resident key and user verification required, no attestation. */
  async registrationOptions(user: User): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.deps.passkeys.listByUser(user.id);
    const options = await generateRegistrationOptions({
      rpName: this.deps.rp.name,
      rpID: this.deps.rp.id,
      userID: new Uint8Array(userHandle(user.id)),
      userName: user.id,
      userDisplayName: user.name,
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({
        id: p.id,
        transports: p.transports as AuthenticatorTransport[],
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.deps.challenges.issue(options.challenge, { kind: 'registration', userId: user.id });
    return options;
  }

  /** Registers the passkey of a registration response to `user`'s creation options. */
  async register(
    user: User,
    response: RegistrationResponseJSON,
    name?: string,
  ): Promise<PasskeySummary> {
    const challenge = clientDataChallenge(response);
    if (!(await this.deps.challenges.take(challenge, { kind: 'registration', userId: user.id }))) {
      throw new PasskeyRegistrationError(
        'Passkey registration refused: its challenge was used, has expired or was not issued to you; ask for new registration options',
      );
    }
    let verification;
    try {
      verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.deps.rp.origin,
        expectedRPID: this.deps.rp.id,
        requireUserVerification: true,
      });
    } catch (err) {
      throw new PasskeyRegistrationError(`Passkey registration refused: ${messageOf(err)}`, {
        cause: err,
      });
    }
    if (!verification.verified) {
      throw new PasskeyRegistrationError('Passkey registration refused: it did not verify');
    }
    const info = verification.registrationInfo;
    if ((await this.deps.passkeys.listByUser(user.id)).length >= MAX_PASSKEYS_PER_USER) {
      throw new PasskeyConflictError(
        `You have ${MAX_PASSKEYS_PER_USER} passkeys, the most allowed: remove one first`,
      );
    }
    const passkey: Passkey = {
      id: info.credential.id,
      userId: user.id,
      name: name?.trim() || 'Passkey',
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: info.credential.transports ?? response.response.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      createdAt: this.clock(),
      lastUsedAt: null,
    };
    if (!(await this.deps.passkeys.insertIfAbsent(passkey))) {
      throw new PasskeyConflictError('This passkey is registered already');
    }
    return summaryOf(passkey);
  }

  /** The user's passkeys, oldest first. */
  async list(userId: string): Promise<PasskeySummary[]> {
    return (await this.deps.passkeys.listByUser(userId)).map(summaryOf);
  }

  /** Removes one of the user's passkeys; 404 when it is not theirs. */
  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.deps.passkeys.remove(userId, id))) throw new PasskeyNotFoundError();
  }

  /** Request options for a login with any passkey of this relying party (discoverable). */
  async authenticationOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({
      rpID: this.deps.rp.id,
      allowCredentials: [],
      userVerification: 'required',
      timeout: PASSKEY_CHALLENGE_TTL_MS,
    });
    await this.deps.challenges.issue(options.challenge, { kind: 'login' });
    return options;
  }

  /** The owner of a passkey (the login method's failure subject); undefined when unknown. */
  async ownerOf(credentialId: string): Promise<string | undefined> {
    if (!credentialId || credentialId.length > 1400) return undefined;
    return (await this.deps.passkeys.findById(credentialId))?.userId;
  }

  /**
   * Checks a login assertion: its challenge taken once, the passkey registered, the user handle
   * its owner's, the signature and user verification, a counter that moved forward (a cloned
   * authenticator's goes back: refused), and records the use. PasskeyRefusedError otherwise.
   */
  async verifyAssertion(response: AuthenticationResponseJSON): Promise<VerifiedPasskey> {
    const challenge = clientDataChallenge(response);
    if (!(await this.deps.challenges.take(challenge, { kind: 'login' }))) {
      throw new PasskeyRefusedError(
        'Passkey refused: its challenge was used or has expired; ask for new authentication options',
      );
    }
    const passkey = await this.deps.passkeys.findById(response.id);
    if (!passkey) {
      throw new PasskeyRefusedError(
        'Passkey refused: it is not registered here (removed, or made for another account)',
      );
    }
    const handle = response.response.userHandle;
    if (handle !== undefined && handle !== userHandle(passkey.userId).toString('base64url')) {
      throw new PasskeyRefusedError('Passkey refused: its user handle is not its owner');
    }
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.deps.rp.origin,
        expectedRPID: this.deps.rp.id,
        credential: {
          id: passkey.id,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports as AuthenticatorTransport[],
        },
        requireUserVerification: true,
      });
    } catch (err) {
      throw new PasskeyRefusedError(`Passkey refused: ${messageOf(err)}`, { cause: err });
    }
    if (!verification.verified) throw new PasskeyRefusedError('Passkey refused: it did not verify');
    const info = verification.authenticationInfo;
    const recorded = await this.deps.passkeys.recordUse(
      passkey.id,
      passkey.counter,
      info.newCounter,
      this.clock(),
    );
    if (!recorded) {
      throw new PasskeyRefusedError('Passkey refused: another login used it at the same moment');
    }
    return {
      userId: passkey.userId,
      kind: info.credentialDeviceType === 'multiDevice' || info.credentialBackedUp ? 'swk' : 'hwk',
    };
  }
}

/**
 * The WebAuthn user handle of a user: a digest of the user id (stable, so one authenticator
 * keeps one passkey per user and RP; not the id itself, which may be an e-mail address).
 */
export function userHandle(userId: string): Buffer {
  return createHash('sha256').update(`itp passkey user\u0000${userId}`).digest();
}

function messageOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}
