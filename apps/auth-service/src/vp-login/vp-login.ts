import type { LoginResult } from '@itp/schemas';
import type { OneTimeMarks } from '@itp/stores';
import { VpReplayedError } from '../errors.js';
import { attemptLogin } from '../login/attempt-login.js';
import type { Authenticated, FailureLimit, LoginMethod } from '../login/login-method.js';
import type { LoginResults } from '../login/login-results.js';
import type { LoginRequests } from '../login-requests/login-requests.js';
import { clientGroup } from '@itp/service-kit';
import type { FailureCounter } from '../rate-limit/failure-counter.js';
import type { DidService } from '../did-service/did-service.js';

export interface VpLoginOptions {
  /** Freshness window of a login VP (VP_LOGIN_MAX_AGE_SECONDS). */
  maxAgeSeconds: number;
  clock?: () => number;
}

/** A VP presented for login (auth-user-with-vp), from a client address. */
export interface PresentedVp {
  vp: unknown;
  clientIp: string;
}

export interface VpLoginDeps {
  /** did-service's VP login check (verify-login-vp). */
  verifier: Pick<DidService, 'verifyLoginVp'>;
  /** Where used VPs are marked: SQL, so that a Redis that restarts empty forgets none. */
  usedVps: OneTimeMarks;
  loginRequests: LoginRequests;
  loginResults: LoginResults;
  /** The per-client-IP failure counter shared with password login. */
  failuresPerIp: FailureCounter;
}

/**
 * auth-user-with-vp (docs/api.md §2). did-service checks the VP (verifies,
 * addressed to a verifier DID of the service, fresh, every VC from an issuer DID of the service
 * and about the holder; the user is the VCs' `sub`). Here: used once — the VP's id is marked in
 * the database (an insert that only the first of any number of concurrent sends on any instance
 * makes; it survives a Redis that restarts empty) until it would be stale anyway — then, with a requestId, the pending web-site request is
 * approved for that user (atomically: must exist, be pending, not expired), and the user (must
 * exist and be enabled) gets the login result.
 */
export class VpLogin implements LoginMethod<PresentedVp> {
  readonly id = 'vp';
  readonly amr = 'vp';
  private readonly clock: () => number;

  constructor(
    private readonly deps: VpLoginDeps,
    private readonly options: VpLoginOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  async login(vp: unknown, requestId: string | undefined, address: string): Promise<LoginResult> {
    const login = await attemptLogin(this, { vp, clientIp: address });
    if (requestId !== undefined) {
      await this.deps.loginRequests.approveLoginRequest(
        requestId,
        login.userId,
        'app',
        login.evidence,
      );
    }
    return this.deps.loginResults.complete(login);
  }

  /** The per-client-address limit shared with password login (IPv6 counted by /64). */
  async failureLimits(input: PresentedVp): Promise<readonly FailureLimit[]> {
    return [{ counter: this.deps.failuresPerIp, subject: clientGroup(input.clientIp) }];
  }

  /** did-service's check of the VP, then its one use (a replay is refused and counted). */
  async authenticate(input: PresentedVp): Promise<Authenticated> {
    const verified = await this.deps.verifier.verifyLoginVp(input.vp, this.options.maxAgeSeconds);
    const now = this.clock();
    // Keyed by holder DID and VP id (the holder's DID is the namespace: `did:` is no other's).
    const marked = await this.deps.usedVps.mark(
      `${verified.holder}\u0000${verified.vpId}`,
      Math.max(now + 1000, verified.freshUntil * 1000 + 1000),
      now,
    );
    if (!marked) throw new VpReplayedError();
    return {
      userId: verified.userId,
      amr: 'vp',
      evidence:
        verified.credentialIssuedAt === undefined
          ? {}
          : { credentialIssuedAt: verified.credentialIssuedAt },
    };
  }
}
