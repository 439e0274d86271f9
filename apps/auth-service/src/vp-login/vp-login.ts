import { UnauthorizedError } from '@itp/errors';
import type { LoginResult } from '@itp/schemas';
import type { OneTimeMarks } from '@itp/stores';
import { VpReplayedError } from '../errors.js';
import type { LoginResults } from '../login/login-results.js';
import type { LoginRequests } from '../login-requests/login-requests.js';
import { clientGroup } from '@itp/service-kit';
import type { FailureCounter } from '../rate-limit/failure-counter.js';
import type { LoginVpVerifier } from './login-vp-verifier.js';

export interface VpLoginOptions {
  /** Freshness window of a login VP (VP_LOGIN_MAX_AGE_SECONDS). */
  maxAgeSeconds: number;
  clock?: () => number;
}

export interface VpLoginDeps {
  verifier: LoginVpVerifier;
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
export class VpLogin {
  private readonly clock: () => number;

  constructor(
    private readonly deps: VpLoginDeps,
    private readonly options: VpLoginOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  async login(vp: unknown, requestId: string | undefined, address: string): Promise<LoginResult> {
    const clientIp = clientGroup(address); // IPv6 counted by /64
    await this.deps.failuresPerIp.check(clientIp);
    let verified;
    try {
      verified = await this.deps.verifier.verify(vp, this.options.maxAgeSeconds);
    } catch (err) {
      if (err instanceof UnauthorizedError) await this.deps.failuresPerIp.recordFailure(clientIp);
      throw err;
    }
    const now = this.clock();
    // Keyed by holder DID and VP id (the holder's DID is the namespace: `did:` is no other's).
    const marked = await this.deps.usedVps.mark(
      `${verified.holder}\u0000${verified.vpId}`,
      Math.max(now + 1000, verified.freshUntil * 1000 + 1000),
      now,
    );
    if (!marked) {
      await this.deps.failuresPerIp.recordFailure(clientIp);
      throw new VpReplayedError();
    }
    const evidence =
      verified.credentialIssuedAt === undefined
        ? {}
        : { credentialIssuedAt: verified.credentialIssuedAt };
    if (requestId !== undefined) {
      await this.deps.loginRequests.approveLoginRequest(
        requestId,
        verified.userId,
        'app',
        evidence,
      );
    }
    return this.deps.loginResults.issueLoginResult(verified.userId, 'vp', evidence);
  }
}
