import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { isBaseError, UnauthorizedError } from '@itp/errors';
import type { Logger } from '@itp/service-kit';
import { oneTimeKey, type OneTimeMarks } from '@itp/stores';
import { LoginRequestUnknownError } from '../errors.js';
import type { LoginRequests } from '../login-requests/login-requests.js';
import { accessDenied, OAuthError } from './oauth-error.js';
import type { DidService } from '../did-service/did-service.js';
import { ITP_SD_JWT_QUERY_ID, type OwnSdJwtVcCheck } from './own-sd-jwt-vc-check.js';
import type {
  Oid4vpSession,
  Oid4vpSessionStore,
  StoredOid4vpSession,
} from './oid4vp-session-store.js';

export interface Oid4vpLoginOptions {
  /** PUBLIC_URL (development: the service's own address), without a trailing slash. */
  publicUrl: string;
  /** How long an approved login request stays collectable after its waitTime (its TTL's grace). */
  resultGraceMs: number;
  clock?: () => number;
}

export interface Oid4vpLoginDeps {
  /** did-service signs the request objects and checks the wallets' answers. */
  verifier: Pick<DidService, 'oid4vpRequestObject' | 'oid4vpVerifyResponse'>;
  /**
   * Checks an answer with this service's own SD-JWT VC (the request's other option): here, against
   * the own issuers' roots only. Absent: such an answer is refused.
   */
  ownSdJwtVcs?: Pick<OwnSdJwtVcCheck, 'check'>;
  sessions: Oid4vpSessionStore;
  /**
   * Where answered sessions are marked (SQL): a Redis that went back in time shows a session
   * pending again, but its answer is not accepted twice (docs/api.md §8).
   */
  marks: OneTimeMarks;
  /** approveLoginRequest: the same approval as auth-user-with-vp's. */
  loginRequests: LoginRequests;
  logger: Logger;
}

/** Compare-and-swap retries before giving up (only reached under absurd contention). */
const MAX_ATTEMPTS = 5;

/** 256 random bits, base64url (43 characters): session ids, `state`, `nonce`. */
const randomToken = (): string => randomBytes(32).toString('base64url');

/** Session ids as newSessionId makes them; anything else is unknown without a lookup. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
/** Constant-time string equality (the `state` is a secret of the wallet and this service). */
const sameSecret = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b));

const UNKNOWN_REQUEST = 'Unknown, expired or already used request';

/**
 * OpenID4VP 1.0 login for web-site login requests (contract §8): beside the requestId of
 * auth-user-by-app, a wallet gets `openid4vp://?client_id=…&request_uri=…`; it fetches the signed
 * request object once (GET request/<id>), and posts its `vp_token` and `state` once
 * (`direct_post` to response/<id>). did-service signs the request object (asking for this
 * service's jwt_vc_json VC or its SD-JWT VC) and checks an answer with the VC; an answer with the
 * SD-JWT VC is checked here (ownSdJwtVcs: the own issuers' roots only); a verified answer approves the pending login request for its user exactly as
 * auth-user-with-vp does, and the site's poll then collects the login result.
 */
export class Oid4vpLogin {
  private readonly clock: () => number;

  constructor(
    private readonly deps: Oid4vpLoginDeps,
    private readonly options: Oid4vpLoginOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  requestUri(id: string): string {
    return `${this.options.publicUrl}/v2/auth/oid4vp/request/${id}`;
  }

  responseUri(id: string): string {
    return `${this.options.publicUrl}/v2/auth/oid4vp/response/${id}`;
  }

  /**
   * auth-user-by-app: an authorization request for the new login request `requestId` (open for
   * `waitTimeSeconds`), and the `openid4vp://` URI that names it. Undefined when it cannot be made
   * (did-service unavailable, Redis failing): the login request stands without it (the phone app
   * still approves it by its requestId), so this never fails the call.
   */
  async start(requestId: string, waitTimeSeconds: number): Promise<string | undefined> {
    try {
      const state = randomToken();
      const nonce = randomToken();
      const now = this.clock();
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const id = randomToken();
        const { clientId, requestObject } = await this.deps.verifier.oid4vpRequestObject({
          state,
          nonce,
          responseUri: this.responseUri(id),
          expiresInSeconds: waitTimeSeconds,
        });
        const session: Oid4vpSession = {
          requestId,
          state,
          nonce,
          clientId,
          requestObject,
          status: 'pending',
          expiresAt: now + waitTimeSeconds * 1000,
        };
        const ttlMs = waitTimeSeconds * 1000 + this.options.resultGraceMs;
        if (await this.deps.sessions.create(id, session, ttlMs)) {
          return (
            `openid4vp://?client_id=${encodeURIComponent(clientId)}` +
            `&request_uri=${encodeURIComponent(this.requestUri(id))}`
          );
        }
      }
      throw new Error('could not store a new OpenID4VP session');
    } catch (err) {
      this.deps.logger.warn(
        { err: isBaseError(err) ? err.message : err },
        'auth-user-by-app answered without openid4vpUri (OpenID4VP request could not be made)',
      );
      return undefined;
    }
  }

  /**
   * GET request/<id>: the signed request object, once. A second fetch, an unknown id or an
   * expired request: 404 invalid_request.
   */
  async takeRequestObject(id: string): Promise<string> {
    if (!SESSION_ID.test(id)) throw this.notFound();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const stored = await this.deps.sessions.read(id);
      if (!stored || stored.session.requestObject === undefined || this.expired(stored.session)) {
        throw this.notFound();
      }
      const { requestObject, ...rest } = stored.session;
      if (await this.deps.sessions.replace(id, stored, rest)) return requestObject;
    }
    throw this.notFound();
  }

  /**
   * POST response/<id>: the wallet's answer (`direct_post`). The session must exist, be pending
   * and not expired, and `state` must be its own (else 400 invalid_request); the first answer
   * claims it (of concurrent answers on any instance exactly one goes on, the others are 400).
   * did-service (or, for the SD-JWT VC query, ownSdJwtVcs) checks the `vp_token` against the
   * session's nonce and client id; verified, the login request is approved for the user (a
   * credential issued before the user's reset refused there). Refused, or the user is unknown or
   * disabled: 400 access_denied with one generic description. did-service, the status list (or
   * the database) down: 503
   * temporarily_unavailable, and the claim is released so that the wallet may post again.
   *
   * Once in SQL: the session is marked answered (a one-time mark) after did-service verified the
   * answer and before the approval, so that an answer replayed to a Redis that went back in time
   * (the session pending again) is refused as a replay (400 invalid_request) and the site's poll
   * never gets a second login result. (An answer whose approval then fails on Redis is not
   * accepted again: the user scans a new code.)
   */
  async answer(id: string, vpToken: string, state: string): Promise<void> {
    const claimed = await this.claim(id, state);
    const { session } = claimed;
    const answeredKey = oneTimeKey('oid4vp-response', id);
    // Checked before did-service's work; decided by the mark below.
    if (
      await this.settled(id, claimed, () => this.deps.marks.isMarked(answeredKey, this.clock()))
    ) {
      throw this.replayed();
    }
    const sdJwt = ownSdJwtAnswer(vpToken);
    let verification;
    try {
      verification =
        sdJwt === undefined
          ? await this.deps.verifier.oid4vpVerifyResponse({
              vpToken,
              nonce: session.nonce,
              clientId: session.clientId,
            })
          : await this.checkOwnSdJwtVc(sdJwt, session);
    } catch (err) {
      throw await this.failed(id, claimed, err, sdJwt === undefined ? 'did-service' : 'SD-JWT VC');
    }
    if (!verification.verified) {
      this.deps.logger.info(
        { code: verification.error.code },
        sdJwt === undefined
          ? 'OpenID4VP answer refused by did-service'
          : 'OpenID4VP answer refused: the SD-JWT VC is not a login credential of this service',
      );
      throw accessDenied();
    }
    const now = this.clock();
    const first = await this.settled(id, claimed, () =>
      this.deps.marks.mark(answeredKey, session.expiresAt, now),
    );
    if (!first) throw this.replayed();
    try {
      await this.deps.loginRequests.approveLoginRequest(
        session.requestId,
        verification.userId,
        'vp',
        verification.credentialIssuedAt === undefined
          ? {}
          : { credentialIssuedAt: verification.credentialIssuedAt },
      );
    } catch (err) {
      if (err instanceof UnauthorizedError) throw accessDenied(); // unknown or disabled user
      if (err instanceof LoginRequestUnknownError) {
        throw new OAuthError(400, 'invalid_request', 'The login request is no longer pending');
      }
      throw await this.failed(id, claimed, err, 'the login request');
    }
  }

  /**
   * POST response/<id> with an error response (OpenID4VP 1.0 §8.5; e.g. `access_denied` when the
   * user declined in the wallet): the session must be pending with this `state`, as for an
   * answer, and is claimed once; the pending login request is then declined, so that the site's
   * poll answers 400 access_denied at once. Refused like an answer: 400 invalid_request for an
   * unknown, expired, answered session or a wrong state, and after an accepted answer (its mark in
   * SQL) also when Redis went back in time.
   */
  async decline(id: string, state: string, error: string): Promise<void> {
    const claimed = await this.claim(id, state);
    const answeredKey = oneTimeKey('oid4vp-response', id);
    if (
      await this.settled(id, claimed, () => this.deps.marks.isMarked(answeredKey, this.clock()))
    ) {
      throw this.replayed();
    }
    this.deps.logger.info({ error }, 'OpenID4VP error response: the login request is declined');
    try {
      await this.deps.loginRequests.declineLoginRequest(claimed.session.requestId);
    } catch (err) {
      if (err instanceof LoginRequestUnknownError) {
        throw new OAuthError(400, 'invalid_request', 'The login request is no longer pending');
      }
      throw await this.failed(id, claimed, err, 'the login request');
    }
  }

  /** The answer to the SD-JWT VC query (`{ itp_sd_jwt: [<one presentation>] }` only). */
  private async checkOwnSdJwtVc(
    answer: string | { malformed: string },
    session: Oid4vpSession,
  ): Promise<
    | { verified: true; userId: string; credentialIssuedAt?: number }
    | { verified: false; error: { code: string; message: string } }
  > {
    if (typeof answer !== 'string') {
      return { verified: false, error: { code: 'dcql_unsatisfied', message: answer.malformed } };
    }
    if (!this.deps.ownSdJwtVcs) {
      return {
        verified: false,
        error: { code: 'unsupported_format', message: 'SD-JWT VCs do not log in here' },
      };
    }
    return this.deps.ownSdJwtVcs.check(answer, {
      nonce: session.nonce,
      clientId: session.clientId,
    });
  }

  /** A one-time-mark call after the claim: a database outage releases the claim (503). */
  private async settled(
    id: string,
    claimed: StoredOid4vpSession,
    call: () => Promise<boolean>,
  ): Promise<boolean> {
    try {
      return await call();
    } catch (err) {
      throw await this.failed(id, claimed, err, 'the one-time mark');
    }
  }

  private replayed(): OAuthError {
    return new OAuthError(400, 'invalid_request', UNKNOWN_REQUEST);
  }

  /** Reads and claims a pending session (pending → answered, compare-and-swap). */
  private async claim(id: string, state: string): Promise<StoredOid4vpSession> {
    const unknown = () => new OAuthError(400, 'invalid_request', UNKNOWN_REQUEST);
    if (!SESSION_ID.test(id)) throw unknown();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const stored = await this.deps.sessions.read(id);
      if (!stored || stored.session.status !== 'pending' || this.expired(stored.session)) {
        throw unknown();
      }
      if (!sameSecret(state, stored.session.state)) {
        throw new OAuthError(400, 'invalid_request', 'state does not match the request');
      }
      const claimed = await this.deps.sessions.replace(id, stored, {
        ...stored.session,
        status: 'answered',
      });
      if (claimed) return claimed;
    }
    throw unknown();
  }

  /**
   * What a failure after the claim answers: a dependency down (503) releases the claim (the
   * wallet may post again) and is temporarily_unavailable; anything else keeps the session
   * answered and is a server_error.
   */
  private async failed(
    id: string,
    claimed: StoredOid4vpSession,
    err: unknown,
    what: string,
  ): Promise<OAuthError> {
    if (isBaseError(err) && err.status === 503) {
      await this.deps.sessions
        .replace(id, claimed, { ...claimed.session, status: 'pending' })
        .catch(() => undefined);
      return new OAuthError(
        503,
        'temporarily_unavailable',
        'The presentation cannot be checked now; try again later',
        'retryAfterSeconds' in err && typeof err.retryAfterSeconds === 'number'
          ? err.retryAfterSeconds
          : undefined,
      );
    }
    this.deps.logger.error({ err }, `OpenID4VP answer: ${what} failed`);
    return new OAuthError(
      isBaseError(err) && err.status === 502 ? 502 : 500,
      'server_error',
      'The presentation could not be processed',
    );
  }

  private expired(session: Oid4vpSession): boolean {
    return this.clock() >= session.expiresAt;
  }

  private notFound(): OAuthError {
    return new OAuthError(404, 'invalid_request', UNKNOWN_REQUEST);
  }
}

/**
 * A `vp_token` answering the SD-JWT VC query: its one presentation, or why it is malformed (it
 * must answer that query alone, with one presentation). Undefined for any other `vp_token`:
 * did-service checks it, as before.
 */
function ownSdJwtAnswer(vpToken: string): string | { malformed: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(vpToken);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  if (!Object.hasOwn(parsed, ITP_SD_JWT_QUERY_ID)) return undefined;
  const entries = Object.entries(parsed);
  const presentations = (parsed as Record<string, unknown>)[ITP_SD_JWT_QUERY_ID];
  if (entries.length !== 1) {
    return { malformed: 'vp_token must answer one credential query only' };
  }
  if (
    !Array.isArray(presentations) ||
    presentations.length !== 1 ||
    typeof presentations[0] !== 'string'
  ) {
    return { malformed: 'vp_token must hold exactly one SD-JWT VC presentation' };
  }
  return presentations[0];
}
