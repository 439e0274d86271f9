import { ForbiddenError, InternalError, UnauthorizedError } from '@itp/errors';
import type { AuthUserByAppResponse } from '@itp/schemas';
import type { Client } from '../clients/client.js';
import { assertMayLogIn, type LoginEvidence } from '../users/account-rules.js';
import type { UserRepository } from '../users/user-repository.js';
import type { ApprovalLedger } from './approval-ledger.js';
import type { Approval, ApprovalMethod, LoginRequest } from './login-request.js';
import { LoginRequestPendingError, LoginRequestUnknownError } from '../errors.js';
import type { LoginRequestStore, StoredLoginRequest } from './login-request-store.js';
import { formatRequestId, newLoginRequestId, parseRequestId } from './request-id.js';

export interface LoginRequestsOptions {
  /**
   * How long an approved request stays collectable after its waitTime ran out (the record's TTL
   * is waitTime + grace). Approval itself must happen within waitTime.
   */
  resultGraceMs: number;
  clock?: () => number;
  /**
   * The durable record of approvals (SQL): an approved result is handed out once also after
   * Redis lost the request. Without it (unit tests), Redis alone decides.
   */
  approvals?: ApprovalLedger;
}

/**
 * 400 with error.code "access_denied" (docs/api.md §2.2, §8): the user declined the login in an
 * OpenID4VP wallet. A LoginRequestUnknownError (the request is over) with its own code, so a site
 * tells "declined" from "timed out" and stops polling at once.
 */
export class LoginRequestDeclinedError extends LoginRequestUnknownError {
  static override readonly code: string = 'access_denied';
  constructor() {
    super({ status: 'declined' });
    this.message = 'The user declined the login request in the wallet';
  }
}

/** Compare-and-swap retries before giving up (only reached under absurd contention). */
const MAX_ATTEMPTS = 5;

type Decision<R> =
  { next: LoginRequest; result?: R } | { done: true; result?: R } | { fail: Error };

/**
 * Web-site login requests (docs/api.md §2): created and polled by a relying party, approved by the
 * user application (auth-user-with-vp, through approveLoginRequest), handed out exactly once.
 * A request is visible only to the client that created it: any other client gets the same 400
 * as for a request that never existed.
 */
export class LoginRequests {
  private readonly clock: () => number;

  constructor(
    private readonly store: LoginRequestStore,
    private readonly users: UserRepository,
    private readonly options: LoginRequestsOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  /** auth-user-by-app: a new pending request for `client`; 403 for a foreign site prefix. */
  async create(
    client: Client,
    sitePrefix: string,
    waitTimeSeconds: number,
  ): Promise<AuthUserByAppResponse> {
    if (!client.requestIdPrefixes.some((prefix) => sitePrefix.startsWith(prefix))) {
      throw new ForbiddenError('requestId does not start with a prefix registered for this client');
    }
    return this.open(client, sitePrefix, waitTimeSeconds);
  }

  /**
   * A new pending request for `client` under one of its own registered prefixes (the OpenID
   * Connect login page opens one for the client the user is logging in to).
   */
  async openForClient(client: Client, waitTimeSeconds: number): Promise<AuthUserByAppResponse> {
    const [prefix] = client.requestIdPrefixes;
    if (prefix === undefined) throw new ForbiddenError('The client has no requestId prefix');
    return this.open(client, prefix, waitTimeSeconds);
  }

  private async open(
    client: Client,
    sitePrefix: string,
    waitTimeSeconds: number,
  ): Promise<AuthUserByAppResponse> {
    const now = this.clock();
    const request: LoginRequest = {
      clientId: client.id,
      prefix: sitePrefix,
      status: 'pending',
      createdAt: now,
      expiresAt: now + waitTimeSeconds * 1000,
    };
    const ttlMs = waitTimeSeconds * 1000 + this.options.resultGraceMs;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const id = newLoginRequestId(now);
      if (await this.store.create(id, request, ttlMs)) {
        return { requestId: formatRequestId(sitePrefix, id), waitTime: waitTimeSeconds };
      }
    }
    throw new InternalError('Could not store a new login request');
  }

  /**
   * cancel-auth-user-by-app: pending or approved → cancelled; cancelling twice is fine. A pending
   * request past its waitTime (kept for the grace only) is timed out: 400, like its result.
   */
  async cancel(client: Client, requestId: string): Promise<void> {
    const approvals = this.options.approvals;
    await this.transition<string>(
      requestId,
      client.id,
      (request, now) => {
        if (request.status === 'cancelled' || request.status === 'declined') return { done: true };
        if (request.status === 'consumed') return { fail: new LoginRequestUnknownError() };
        if (request.status === 'pending' && now >= request.expiresAt) {
          return { fail: new LoginRequestUnknownError({ status: 'timed out' }) };
        }
        return { next: { ...request, status: 'cancelled' }, result: request.status };
      },
      // Redis lost it: an approval not handed out yet is cancelled in the ledger.
      approvals &&
        (async (id, prefix, now) =>
          (await approvals.consumeApproval(id, client.id, prefix, now)) && 'cancelled'),
    ).then(async (previous) => {
      if (previous === 'approved' && approvals) {
        await this.closeQuietly(parseRequestId(requestId)!.id);
      }
    });
  }

  /**
   * auth-user-result-by-app: the approved user's id, exactly once (approved → consumed is one
   * compare-and-swap: of concurrent polls on any instance, one wins). 401 while pending, 400 when
   * unknown, foreign, timed out, cancelled or already handed out.
   */
  async takeResult(client: Client, requestId: string): Promise<string> {
    return (await this.takeApproval(client, requestId)).userId;
  }

  /**
   * takeResult with how the request was approved (the OpenID Connect provider's `amr`). With the
   * ledger, SQL decides the hand-out: its approval is consumed before Redis says consumed, so a
   * Redis that went back in time (the request approved again) hands nothing out twice.
   */
  async takeApproval(client: Client, requestId: string): Promise<Approval> {
    const approvals = this.options.approvals;
    const approval = await this.transition<Approval>(
      requestId,
      client.id,
      (request, now) => {
        if (request.status === 'approved' && request.userId) {
          return {
            next: { ...request, status: 'consumed' },
            result: {
              userId: request.userId,
              method: request.method ?? 'app',
              ...(request.approvedAt !== undefined ? { approvedAt: request.approvedAt } : {}),
            },
          };
        }
        if (request.status === 'pending' && now < request.expiresAt) {
          return { fail: new LoginRequestPendingError() };
        }
        if (request.status === 'declined') return { fail: new LoginRequestDeclinedError() };
        return { fail: new LoginRequestUnknownError({ status: request.status }) };
      },
      // Redis lost the request (restarted empty): an approval is still handed out, once.
      approvals && ((id, prefix, now) => approvals.consumeApproval(id, client.id, prefix, now)),
      // Before Redis hands it out: the ledger's approval, once (a database outage is a 503 with
      // nothing changed; the site polls again).
      approvals &&
        (async (id, request) => {
          if (!(await approvals.consumeApproval(id, client.id, request.prefix, this.clock()))) {
            throw new LoginRequestUnknownError({ status: 'consumed' });
          }
        }),
    );
    if (approval === undefined) throw new LoginRequestUnknownError();
    return approval;
  }

  /**
   * THE SEAM for auth-user-with-vp: the user application approves the pending request named by
   * `requestId` (as shown in the QR code) for `userId`, who must exist and be enabled
   * (UnauthorizedError otherwise), with a credential issued after the account's last reset
   * (`evidence`, docs/api.md §12). BadRequestError (LoginRequestUnknownError) for an unknown,
   * timed-out or no longer pending request.
   */
  async approveLoginRequest(
    requestId: string,
    userId: string,
    method: ApprovalMethod = 'app',
    evidence: Pick<LoginEvidence, 'credentialIssuedAt'> = {},
  ): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user || !user.enabled)
      throw new UnauthorizedError('The user does not exist or is disabled');
    assertMayLogIn(user, evidence);
    const approvals = this.options.approvals;
    let recorded: string | undefined;
    try {
      await this.transition(
        requestId,
        undefined,
        (request, now) => {
          if (request.status !== 'pending' || now >= request.expiresAt) {
            return { fail: new LoginRequestUnknownError({ status: request.status }) };
          }
          return { next: { ...request, status: 'approved', userId, method, approvedAt: now } };
        },
        undefined,
        // Before the approval takes effect in Redis: the durable record (a database outage is
        // a 503 with nothing changed, and the app may retry).
        approvals &&
          (async (id, request) => {
            await approvals.recordApproval(
              {
                id,
                clientId: request.clientId,
                prefix: request.prefix,
                userId,
                method,
                approvedAt: this.clock(),
                expiresAt: request.expiresAt + this.options.resultGraceMs,
              },
              this.clock(),
            );
            recorded = id;
          }),
      );
    } catch (err) {
      // The request changed meanwhile (cancelled, timed out): the record goes too.
      if (recorded !== undefined && approvals) {
        await approvals.discardApproval(recorded).catch(() => undefined);
      }
      throw err;
    }
  }

  /**
   * An OpenID4VP wallet's error response (the user declined): the pending request named by
   * `requestId` is declined, and the site's poll answers 400 access_denied at once (until the
   * request's TTL) instead of 401 until waitTime. LoginRequestUnknownError for a request that is
   * not pending or timed out.
   */
  async declineLoginRequest(requestId: string): Promise<void> {
    await this.transition(requestId, undefined, (request, now) => {
      if (request.status !== 'pending' || now >= request.expiresAt) {
        return { fail: new LoginRequestUnknownError({ status: request.status }) };
      }
      return { next: { ...request, status: 'declined' } };
    });
  }

  /** Marks an approval handed out or cancelled; a failure only costs the durable copy. */
  private async closeQuietly(id: string): Promise<void> {
    try {
      await this.options.approvals?.closeApproval(id, this.clock());
    } catch {
      // Redis already decided (the answer stands); the ledger row expires with the request.
    }
  }

  /**
   * Reads the request (checking its prefix and, when given, its client), lets `decide` pick the
   * next state, and writes it with a compare-and-swap; a lost race re-reads and decides again.
   */
  private async transition<R>(
    requestId: string,
    clientId: string | undefined,
    decide: (request: LoginRequest, now: number) => Decision<R>,
    /** When Redis has no such request: the ledger's answer (undefined: 400 as before). */
    whenMissing?: (id: string, prefix: string, now: number) => Promise<R | undefined>,
    /** Runs before a state change is written (the durable record of an approval). */
    beforeWrite?: (id: string, request: LoginRequest) => Promise<void>,
  ): Promise<R | undefined> {
    const parsed = parseRequestId(requestId);
    if (!parsed) throw new LoginRequestUnknownError({ reason: 'malformed' });
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const stored = await this.store.read(parsed.id);
      if (!stored && whenMissing) {
        const answer = await whenMissing(parsed.id, parsed.sitePrefix, this.clock());
        if (answer !== undefined) return answer;
      }
      if (!stored || !this.visible(stored, parsed.sitePrefix, clientId)) {
        throw new LoginRequestUnknownError();
      }
      const decision = decide(stored.request, this.clock());
      if ('fail' in decision) throw decision.fail;
      if ('done' in decision) return decision.result;
      await beforeWrite?.(parsed.id, stored.request);
      if (await this.store.replace(parsed.id, stored, decision.next)) return decision.result;
    }
    throw new LoginRequestUnknownError({ reason: 'contention' });
  }

  private visible(stored: StoredLoginRequest, sitePrefix: string, clientId?: string): boolean {
    return (
      stored.request.prefix === sitePrefix &&
      (clientId === undefined || stored.request.clientId === clientId)
    );
  }
}
