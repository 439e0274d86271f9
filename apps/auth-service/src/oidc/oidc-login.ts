import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { BaseError, TooManyRequestsError, UnauthorizedError } from '@itp/errors';
import type { KvStore } from '@itp/stores';
import type { Client } from '../clients/client.js';
import type { ClientRepository } from '../clients/client-repository.js';
import { LoginRequestPendingError, LoginRequestUnknownError } from '../errors.js';
import type { PasswordLogin, PasswordLoginRequest } from '../login/password-login.js';
import { INVALID_CREDENTIALS } from '../login/password-login.js';
import type { LoginRequests } from '../login-requests/login-requests.js';
import type { Oid4vpLogin } from '../oid4vp/oid4vp-login.js';
import type { OidcLoginMethod } from './oidc-provider.js';
import type { LoginPageQr, LoginPageView } from './oidc-pages.js';

/** What a login route answers: a page, a redirect onwards, or the expired-page. */
export type OidcPage =
  | {
      kind: 'login';
      status: number;
      view: Omit<LoginPageView, 'assets'>;
      retryAfterSeconds?: number;
    }
  | { kind: 'expired'; status: number }
  | { kind: 'redirect'; location: string };

/** The login page's poll of its QR logins. */
export type QrStatus =
  | { status: 'pending' }
  | { status: 'done'; redirectTo: string }
  | { status: 'expired' }
  | { status: 'refused'; message: string };

export interface OidcLoginDeps {
  provider: Provider;
  passwordLogin: PasswordLogin;
  loginRequests: LoginRequests;
  oid4vp: Oid4vpLogin;
  clients: ClientRepository;
  kv: KvStore;
  /** A QR code of `text` as a PNG data URL. */
  qrDataUrl: (text: string) => Promise<string>;
}

export interface OidcLoginOptions {
  /** Longest life of a login page's QR codes (the login request's waitTime). */
  qrWaitSeconds: number;
  clock?: () => number;
}

/** The QR logins a login page shows, kept per interaction (`oidc-qr:<uid>`). */
interface StoredQr {
  requestId: string;
  openid4vpUri?: string;
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/**
 * The provider's login step (its "interaction"), three ways, each ending in the same login result
 * with its `amr`: the password form (`pwd`, auth-user's checks and rate limits), the phone app's
 * QR (`app`: a web-site login request of the client, approved by auth-user-with-vp) and any
 * wallet's OpenID4VP QR (`vp`: the same request, approved by the wallet's presentation). The
 * interaction is bound to the browser by oidc-provider's interaction cookie: a page, a form post
 * or a poll without it finds no interaction (the expired page).
 */
export class OidcLogin {
  private readonly clock: () => number;

  constructor(
    private readonly deps: OidcLoginDeps,
    private readonly options: OidcLoginOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  async showPage(req: IncomingMessage, res: ServerResponse, uid: string): Promise<OidcPage> {
    const found = await this.interaction(req, res, uid);
    if (!found) return { kind: 'expired', status: 400 };
    const { details, client } = found;
    return {
      kind: 'login',
      status: 200,
      view: { uid, clientName: client.name, qr: await this.qrFor(details, client) },
    };
  }

  async submitPassword(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    credentials: Omit<PasswordLoginRequest, 'token'>,
  ): Promise<OidcPage> {
    const found = await this.interaction(req, res, uid);
    if (!found) return { kind: 'expired', status: 400 };
    const { details, client } = found;
    const refused = async (status: number, error: string, retryAfterSeconds?: number) => ({
      kind: 'login' as const,
      status,
      view: {
        uid,
        clientName: client.name,
        userId: credentials.id,
        error,
        qr: await this.qrFor(details, client).catch(() => undefined),
      },
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
    if (!credentials.id || !credentials.password) {
      return refused(400, 'Enter your user id and password');
    }
    let userId: string;
    try {
      userId = (await this.deps.passwordLogin.authenticate(credentials)).id;
    } catch (err) {
      if (err instanceof TooManyRequestsError) {
        return refused(
          429,
          `Too many failed logins: try again in ${err.retryAfterSeconds} seconds`,
          err.retryAfterSeconds,
        );
      }
      if (err instanceof UnauthorizedError) return refused(401, INVALID_CREDENTIALS);
      if (err instanceof BaseError && err.status === 503) {
        return refused(503, 'Login is unavailable right now; try again later', 5);
      }
      throw err;
    }
    return { kind: 'redirect', location: await this.finish(req, res, userId, 'pwd') };
  }

  async pollQr(req: IncomingMessage, res: ServerResponse, uid: string): Promise<QrStatus> {
    const found = await this.interaction(req, res, uid);
    if (!found) return { status: 'expired' };
    const raw = await this.deps.kv.get(qrKey(uid));
    if (raw === null) return { status: 'expired' };
    const { requestId } = JSON.parse(raw) as StoredQr;
    let approval;
    try {
      approval = await this.deps.loginRequests.takeApproval(found.client, requestId);
    } catch (err) {
      if (err instanceof LoginRequestPendingError) return { status: 'pending' };
      if (err instanceof LoginRequestUnknownError) return { status: 'expired' };
      throw err;
    }
    await this.deps.kv.del(qrKey(uid));
    return {
      status: 'done',
      redirectTo: await this.finish(req, res, approval.userId, approval.method),
    };
  }

  /** The interaction `uid` of this browser and its client; undefined when expired or foreign. */
  private async interaction(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
  ): Promise<{ details: Details; client: Client } | undefined> {
    let details: Details;
    try {
      details = await this.deps.provider.interactionDetails(req, res);
    } catch (err) {
      // SessionNotFound (no or expired interaction cookie / record): the expired page.
      if ((err as { name?: string }).name === 'SessionNotFound') return undefined;
      throw err;
    }
    if (details.uid !== uid || details.prompt.name !== 'login') return undefined;
    const clientId = details.params.client_id;
    const client =
      typeof clientId === 'string' ? await this.deps.clients.findById(clientId) : undefined;
    if (!client || !client.enabled) return undefined;
    return { details, client };
  }

  /** The login result for the provider; the browser continues at the returned URL. */
  private finish(
    req: IncomingMessage,
    res: ServerResponse,
    accountId: string,
    method: OidcLoginMethod,
  ): Promise<string> {
    return this.deps.provider.interactionResult(
      req,
      res,
      { login: { accountId, amr: [method], remember: false } },
      { mergeWithLastSubmission: false },
    );
  }

  /** The page's QR codes: made once per interaction (a reload shows the same ones). */
  private async qrFor(details: Details, client: Client): Promise<LoginPageQr | undefined> {
    if (client.requestIdPrefixes.length === 0) return undefined;
    const key = qrKey(details.uid);
    let stored = await this.readQr(key);
    if (!stored) {
      const remaining = Math.floor(details.exp - this.clock() / 1000);
      const waitSeconds = Math.min(this.options.qrWaitSeconds, remaining);
      if (waitSeconds < 10) return undefined;
      const { requestId } = await this.deps.loginRequests.openForClient(client, waitSeconds);
      const openid4vpUri = await this.deps.oid4vp.start(requestId, waitSeconds);
      const fresh: StoredQr = { requestId, ...(openid4vpUri ? { openid4vpUri } : {}) };
      const won = await this.deps.kv.set(key, JSON.stringify(fresh), {
        ttlMs: waitSeconds * 1000,
        onlyIfAbsent: true,
      });
      stored = won ? fresh : await this.readQr(key);
      if (!stored) return undefined;
    }
    return {
      requestId: stored.requestId,
      requestIdQr: await this.deps.qrDataUrl(stored.requestId),
      ...(stored.openid4vpUri
        ? {
            openid4vpUri: stored.openid4vpUri,
            openid4vpQr: await this.deps.qrDataUrl(stored.openid4vpUri),
          }
        : {}),
    };
  }

  private async readQr(key: string): Promise<StoredQr | undefined> {
    const raw = await this.deps.kv.get(key);
    return raw === null ? undefined : (JSON.parse(raw) as StoredQr);
  }
}

function qrKey(uid: string): string {
  return `oidc-qr:${uid}`;
}
