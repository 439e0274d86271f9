import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { createSiweMessage } from 'viem/siwe';
import { getAddress, isAddress, type Hex } from 'viem';
import {
  BaseError,
  DEFAULT_RETRY_AFTER_SECONDS,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
} from '@itp/errors';
import { passkeyAuthenticationRequestSchema } from '@itp/schemas';
import type { KvStore } from '@itp/stores';
import type { Client } from '../clients/client.js';
import type { ClientRepository } from '../clients/client-repository.js';
import { LoginRequestPendingError, LoginRequestUnknownError } from '../errors.js';
import type { PasswordCredentials } from '../login/password-login.js';
import { INVALID_CREDENTIALS } from '../login/password-login.js';
import { amrValues, type Amr } from '../login/login-history.js';
import type { LoginResults } from '../login/login-results.js';
import { attemptLogin } from '../login/attempt-login.js';
import type { Authenticated, LoginMethod } from '../login/login-method.js';
import type { LoginMethods } from '../login/login-methods.js';
import type { RequestCollection } from '../login-requests/approved-request-login.js';
import type { LoginRequests } from '../login-requests/login-requests.js';
import type { Oid4vpLogin } from '../oid4vp/oid4vp-login.js';
import type { PasskeyAssertion } from '../passkeys/passkey-login.js';
import type { Passkeys } from '../passkeys/passkeys.js';
import type { SiweLogin } from '../siwe/siwe-login.js';
import { grantedScopes } from './oidc-provider.js';
import type { User } from '../users/user.js';
import type { LoginPageQr, LoginPageView } from './oidc-pages.js';
import { clientGroup } from '@itp/service-kit';
import type { FailureCounter } from '../rate-limit/failure-counter.js';

/**
 * What a login route answers: a page, a redirect onwards, or the expired-page. The router adds
 * the paths of the page (its assets, its interaction's absolute path).
 */
export type OidcPage =
  | {
      kind: 'login';
      status: number;
      view: Omit<LoginPageView, 'assets' | 'interaction'>;
      retryAfterSeconds?: number;
    }
  | { kind: 'expired'; status: number; restart?: LoginRestart }
  | { kind: 'redirect'; location: string };

/**
 * How the expired page leads back (kept per interaction, `oidc-restart:<uid>`, longer than the
 * interaction): the authorization request's parameters (the router makes `<issuer>/auth?<query>`
 * of them: the same request again, a new login page), the site's name and the origin of its
 * redirect URI (http(s) only).
 */
export interface LoginRestart {
  query: string;
  clientName?: string;
  siteUrl?: string;
}

/** How long the expired page can still offer to start again: a day after the page was shown. */
const RESTART_TTL_MS = 24 * 60 * 60 * 1000;

/** The error the site gets when the user cancels the login (RFC 6749 §4.1.2.1). */
export const CANCELLED = {
  error: 'access_denied',
  error_description: 'The user cancelled the login',
} as const;

/**
 * The name the pages show for a client: its name, or none when it has no name of its own (the
 * client admin then stores its id as the name; a bare id is no name for a person to read).
 */
export function clientDisplayName(client: Pick<Client, 'id' | 'name'>): string | undefined {
  const name = client.name.trim();
  return name && name !== client.id ? name : undefined;
}

/** The page's QR logins (`POST <interaction>/qr`), or why it has none this time. */
export type QrLogins = { qr?: LoginPageQr } | { notice: string };

/** The login page's poll of its QR logins. */
export type QrStatus =
  | { status: 'pending' }
  | { status: 'done'; redirectTo: string }
  | { status: 'expired' }
  | { status: 'refused'; message: string };

/**
 * The login page's script steps (JSON): Sign-In with Ethereum's message to sign, a passkey's
 * request options, then the result (where the browser continues).
 */
export type SiweStep =
  | {
      status: 200;
      body: { message: string } | { redirectTo: string } | { options: unknown } | QrLogins;
    }
  | { status: number; body: { error: string }; retryAfterSeconds?: number };

export interface OidcLoginDeps {
  provider: Provider;
  /** The registered login methods: the ways in the page offers (ADR 0028). */
  methods: LoginMethods;
  /** The password form's method (`pwd`). */
  password: LoginMethod<PasswordCredentials>;
  /** The QR logins' method: the page's login request, approved, collected (`app` / `vp`). */
  approvedRequests: LoginMethod<RequestCollection>;
  loginRequests: LoginRequests;
  oid4vp: Oid4vpLogin;
  /** Sign-In with Ethereum (its nonces and method); undefined when no chain is configured. */
  siwe: SiweLogin | undefined;
  /** Passkeys (docs/api.md §13): their options and login method; undefined: not offered. */
  passkeys?: {
    options: Pick<Passkeys, 'authenticationOptions'>;
    login: LoginMethod<PasskeyAssertion>;
  };
  clients: ClientRepository;
  kv: KvStore;
  /**
   * Admits what a login method authenticated (approved QR logins against the account's epochs:
   * an approval given before a reset is not honoured) and records the last login per method
   * (docs/api.md §12).
   */
  loginResults: LoginResults;
  /** A QR code of `text` as a PNG data URL. */
  qrDataUrl: (text: string) => Promise<string>;
  /**
   * New login pages with QR codes per client address and window (each one opens a login request
   * and an OpenID4VP session); over it, the page comes without QR codes. None: no limit.
   */
  qrPagesPerIp?: FailureCounter | undefined;
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
 * The provider's login step (its "interaction"), four ways, each ending in the same login result
 * with its `amr`: the password form (`pwd`, auth-user's checks and rate limits), the phone app's
 * QR (`app`: a web-site login request of the client, approved by auth-user-with-vp), any
 * wallet's OpenID4VP QR (`vp`: the same request, approved by the wallet's presentation) and the
 * browser's Ethereum wallet (`siwe`: Sign-In with Ethereum through EIP-1193). The
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
    const found = await this.lookup(req, res, uid);
    if (found?.details.prompt.name === 'consent') {
      // A browser with a session whose site asked for consent (prompt=consent, e.g. for a refresh
      // token): clients are first-party, so consent is implicit.
      const { details } = found;
      const accountId = details.session?.accountId;
      if (!accountId) return this.expired(uid);
      const grantId = await this.grantFor(details, accountId);
      const location = await this.deps.provider.interactionResult(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
      return { kind: 'redirect', location };
    }
    if (found?.details.prompt.name !== 'login') return this.expired(uid);
    const { details, client } = found;
    await this.keepRestart(details, client);
    return {
      kind: 'login',
      status: 200,
      view: {
        uid,
        clientName: clientDisplayName(client),
        qrLogins: offersQrLogins(client),
        siwe: this.deps.methods.offers('siwe'),
        passkey: this.offersPasskeys(),
      },
    };
  }

  /**
   * The page's QR logins, asked for by its script when the person picks them (`POST
   * <interaction>/qr`, ADR 0036): made once per interaction (a reload, or the page after a
   * refused password, gets the same ones), so a page nobody runs the script of (no JavaScript, a
   * scripted client, a crawler) opens no login request, no OpenID4VP session and draws no QR.
   */
  async qrLogins(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    clientIp: string,
  ): Promise<SiweStep> {
    const found = await this.interaction(req, res, uid);
    if (!found) return expiredStep();
    const made = await this.qrFor(found.details, found.client, clientIp);
    return { status: 200, body: made };
  }

  /** Whether the page offers "Sign in with a passkey" (and the passkey autofill). */
  private offersPasskeys(): boolean {
    return this.deps.passkeys !== undefined && this.deps.methods.offers('passkey');
  }

  /** Request options for this page's passkey login (a one-time challenge, docs/api.md §13). */
  async passkeyOptions(req: IncomingMessage, res: ServerResponse, uid: string): Promise<SiweStep> {
    const passkeys = this.deps.passkeys;
    if (!passkeys) return { status: 404, body: { error: 'Passkeys are not offered here' } };
    if (!(await this.interaction(req, res, uid))) return expiredStep();
    return siweStep(async () => ({
      status: 200,
      body: { options: await passkeys.options.authenticationOptions() },
    }));
  }

  /** A passkey's assertion: its user logs in (amr `hwk`/`swk`, `user`, `mfa`), the browser continues. */
  async submitPasskey(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    response: unknown,
    clientIp: string,
  ): Promise<SiweStep> {
    const passkeys = this.deps.passkeys;
    if (!passkeys) return { status: 404, body: { error: 'Passkeys are not offered here' } };
    const found = await this.interaction(req, res, uid);
    if (!found) return expiredStep();
    const parsed = passkeyAuthenticationRequestSchema.safeParse({ response });
    if (!parsed.success) {
      return { status: 400, body: { error: 'The browser gave no passkey answer' } };
    }
    return siweStep(async () => {
      const login = await attemptLogin(passkeys.login, {
        response: parsed.data.response as unknown as PasskeyAssertion['response'],
        clientIp,
      });
      return {
        status: 200,
        body: { redirectTo: await this.finish(req, res, found.details, login) },
      };
    });
  }

  /**
   * The Sign-In with Ethereum message for `address` to sign (built here, so the page needs no
   * Ethereum library): this service's domain, URI and chain, a fresh nonce, five minutes.
   */
  async siweMessage(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    address: unknown,
    clientIp: string,
  ): Promise<SiweStep> {
    const ready = await this.siweInteraction(req, res, uid);
    if ('status' in ready) return ready;
    const { siwe, found } = ready;
    if (typeof address !== 'string' || !isAddress(address, { strict: false })) {
      return { status: 400, body: { error: 'The wallet did not give an Ethereum address' } };
    }
    return siweStep(async () => {
      const { nonce, domain, uri, chainId } = await siwe.nonce(clientIp);
      const now = this.clock();
      const message = createSiweMessage({
        domain,
        address: getAddress(address.toLowerCase()),
        // eslint-disable-next-line no-control-regex -- a statement is one line (EIP-4361)
        statement: `Log in to ${found.client.name}`.replace(/[\u0000-\u001f\u007f]+/g, ' '),
        uri,
        version: '1',
        chainId,
        nonce,
        issuedAt: new Date(now),
        expirationTime: new Date(now + 5 * 60_000),
      });
      return { status: 200, body: { message } };
    });
  }

  /** The signed message: the address's user logs in (amr `siwe`), the browser continues. */
  async submitSiwe(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    body: { message: unknown; signature: unknown },
    clientIp: string,
  ): Promise<SiweStep> {
    const ready = await this.siweInteraction(req, res, uid);
    if ('status' in ready) return ready;
    const { siwe, found } = ready;
    const { message, signature } = body;
    if (
      typeof message !== 'string' ||
      typeof signature !== 'string' ||
      !/^0x[0-9a-fA-F]*$/.test(signature)
    ) {
      return { status: 400, body: { error: 'The wallet did not sign the message' } };
    }
    return siweStep(async () => {
      const login = await attemptLogin(siwe, {
        message,
        signature: signature as Hex,
        clientIp,
      });
      return {
        status: 200,
        body: { redirectTo: await this.finish(req, res, found.details, login) },
      };
    });
  }

  async submitPassword(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    credentials: PasswordCredentials,
  ): Promise<OidcPage> {
    const found = await this.interaction(req, res, uid);
    if (!found) return this.expired(uid);
    const { details, client } = found;
    const refused = ({ status, error, retryAfterSeconds }: PageRefusal): OidcPage => ({
      // The form again with its refusal and every way in the page had: Sign-In with Ethereum,
      // passkeys, the QR logins (its script asks for them: the interaction's own, if made).
      kind: 'login' as const,
      status,
      view: {
        uid,
        clientName: clientDisplayName(client),
        userId: credentials.id,
        error,
        qrLogins: offersQrLogins(client),
        siwe: this.deps.methods.offers('siwe'),
        passkey: this.offersPasskeys(),
      },
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
    if (!credentials.id || !credentials.password) {
      return refused({ status: 400, error: 'Enter your user id and password' });
    }
    let login: Authenticated;
    try {
      login = await attemptLogin(this.deps.password, credentials);
    } catch (err) {
      const refusal =
        err instanceof UnauthorizedError
          ? { status: 401, error: INVALID_CREDENTIALS }
          : pageRefusal(err);
      if (refusal) return refused(refusal);
      throw err;
    }
    return { kind: 'redirect', location: await this.finish(req, res, details, login) };
  }

  /**
   * The page's cancel button: the site gets `access_denied` at its redirect URI (with its state),
   * as oidc-provider sends an interaction's error result; an expired interaction: the expired page.
   */
  async cancel(req: IncomingMessage, res: ServerResponse, uid: string): Promise<OidcPage> {
    const found = await this.lookup(req, res, uid);
    if (!found) return this.expired(uid);
    const location = await this.deps.provider.interactionResult(
      req,
      res,
      { ...CANCELLED },
      { mergeWithLastSubmission: false },
    );
    return { kind: 'redirect', location };
  }

  /** The expired page of `uid`, with the way back kept when its page was shown. */
  private async expired(uid: string): Promise<OidcPage> {
    const raw = await this.deps.kv.get(restartKey(uid)).catch(() => null);
    const restart = raw === null ? undefined : (JSON.parse(raw) as LoginRestart);
    return { kind: 'expired', status: 400, ...(restart ? { restart } : {}) };
  }

  /** Keeps how to start the interaction's login again, for its expired page. */
  private async keepRestart(details: Details, client: Client): Promise<void> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(details.params)) {
      if (typeof value === 'string') query.set(name, value);
    }
    const redirectUri = details.params.redirect_uri;
    let siteUrl: string | undefined;
    if (typeof redirectUri === 'string' && /^https?:\/\//.test(redirectUri)) {
      siteUrl = `${new URL(redirectUri).origin}/`;
    }
    const clientName = clientDisplayName(client);
    const restart: LoginRestart = {
      query: query.toString(),
      ...(clientName ? { clientName } : {}),
      ...(siteUrl ? { siteUrl } : {}),
    };
    await this.deps.kv.set(restartKey(details.uid), JSON.stringify(restart), {
      ttlMs: RESTART_TTL_MS,
    });
  }

  async pollQr(req: IncomingMessage, res: ServerResponse, uid: string): Promise<QrStatus> {
    const found = await this.interaction(req, res, uid);
    if (!found) return { status: 'expired' };
    const raw = await this.deps.kv.get(qrKey(uid));
    if (raw === null) return { status: 'expired' };
    const { requestId } = JSON.parse(raw) as StoredQr;
    let approved: Authenticated;
    try {
      approved = await attemptLogin(this.deps.approvedRequests, {
        client: found.client,
        requestId,
      });
    } catch (err) {
      if (err instanceof LoginRequestPendingError) return { status: 'pending' };
      if (err instanceof LoginRequestUnknownError) return { status: 'expired' };
      throw err;
    }
    await this.deps.kv.del(qrKey(uid));
    let user: User;
    try {
      user = await this.deps.loginResults.admitLogin(approved);
    } catch (err) {
      if (err instanceof UnauthorizedError) return { status: 'refused', message: err.message };
      throw err;
    }
    return {
      status: 'done',
      redirectTo: await this.loginResult(req, res, found.details, user, approved.amr),
    };
  }

  /** Sign-In with Ethereum and this browser's interaction `uid`, or the step that refuses. */
  private async siweInteraction(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
  ): Promise<{ siwe: SiweLogin; found: { details: Details; client: Client } } | SiweStep> {
    const siwe = this.deps.siwe;
    if (!siwe) return { status: 404, body: { error: 'Sign-In with Ethereum is not enabled' } };
    const found = await this.interaction(req, res, uid);
    if (!found) {
      return {
        status: 400,
        body: {
          error: 'This login page has expired: return to the site and start the login again',
        },
      };
    }
    return { siwe, found };
  }

  /**
   * The login interaction `uid` of this browser and its client; undefined when expired, foreign
   * or at another prompt.
   */
  private async interaction(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
  ): Promise<{ details: Details; client: Client } | undefined> {
    const found = await this.lookup(req, res, uid);
    return found?.details.prompt.name === 'login' ? found : undefined;
  }

  /**
   * The interaction `uid` of this browser (any prompt) and its client; undefined when expired or
   * foreign.
   */
  private async lookup(
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
    if (details.uid !== uid) return undefined;
    const clientId = details.params.client_id;
    const client =
      typeof clientId === 'string' ? await this.deps.clients.findById(clientId) : undefined;
    if (!client || !client.enabled) return undefined;
    return { details, client };
  }

  /** What a login method authenticated, admitted and recorded (LoginResults), for the provider. */
  private async finish(
    req: IncomingMessage,
    res: ServerResponse,
    details: Details,
    login: Authenticated,
  ): Promise<string> {
    const user = await this.deps.loginResults.admitLogin(login);
    return this.loginResult(req, res, details, user, login.amr);
  }

  /**
   * The login result for the provider (its `amr`; auth_time is the provider's: now), with the
   * (implicit) consent: the browser continues at the returned URL.
   */
  private async loginResult(
    req: IncomingMessage,
    res: ServerResponse,
    details: Details,
    user: User,
    amr: Amr,
  ): Promise<string> {
    const grantId = await this.grantFor(details, user.id);
    return this.deps.provider.interactionResult(
      req,
      res,
      {
        login: { accountId: user.id, amr: amrValues(amr), remember: false },
        consent: { grantId },
      },
      { mergeWithLastSubmission: false },
    );
  }

  /** The grant of the interaction's site for `accountId` (its own, or a new one): grantedScopes. */
  private async grantFor(details: Details, accountId: string): Promise<string> {
    const { Grant } = this.deps.provider;
    const existing = details.grantId ? await Grant.find(details.grantId) : undefined;
    const grant =
      existing && existing.accountId === accountId
        ? existing
        : new Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(grantedScopes(details.params.scope));
    return grant.save();
  }

  /**
   * The page's QR codes: made once per interaction (a reload shows the same ones); none for a
   * client without request id prefixes or a page about to expire; none, with a notice, when the
   * client address has opened too many pages with QR codes (QR pages per IP limit).
   */
  private async qrFor(details: Details, client: Client, clientIp: string): Promise<QrLogins> {
    if (!offersQrLogins(client)) return {};
    const key = qrKey(details.uid);
    let stored = await this.readQr(key);
    if (!stored) {
      const remaining = Math.floor(details.exp - this.clock() / 1000);
      const waitSeconds = Math.min(this.options.qrWaitSeconds, remaining);
      if (waitSeconds < 10) return {};
      try {
        await this.deps.qrPagesPerIp?.take(clientGroup(clientIp));
      } catch (err) {
        if (!(err instanceof TooManyRequestsError)) throw err;
        return {
          notice:
            `Too many login pages from your network: the QR codes are back in ` +
            `${err.retryAfterSeconds} seconds (reload then). The other ways to log in work now.`,
        };
      }
      const { requestId } = await this.deps.loginRequests.openForClient(client, waitSeconds);
      const openid4vpUri = await this.deps.oid4vp.start(requestId, waitSeconds);
      const fresh: StoredQr = { requestId, ...(openid4vpUri ? { openid4vpUri } : {}) };
      const won = await this.deps.kv.set(key, JSON.stringify(fresh), {
        ttlMs: waitSeconds * 1000,
        onlyIfAbsent: true,
      });
      stored = won ? fresh : await this.readQr(key);
      if (!stored) return {};
    }
    return {
      qr: {
        requestId: stored.requestId,
        requestIdQr: await this.deps.qrDataUrl(stored.requestId),
        ...(stored.openid4vpUri
          ? {
              openid4vpUri: stored.openid4vpUri,
              openid4vpQr: await this.deps.qrDataUrl(stored.openid4vpUri),
            }
          : {}),
      },
    };
  }

  private async readQr(key: string): Promise<StoredQr | undefined> {
    const raw = await this.deps.kv.get(key);
    return raw === null ? undefined : (JSON.parse(raw) as StoredQr);
  }
}

/** What the login page says for a refusal, and the status and Retry-After it answers with. */
interface PageRefusal {
  status: number;
  error: string;
  retryAfterSeconds?: number;
}

/**
 * The login page's one wording of the refusals every way of logging in shares: a limit (429,
 * the seconds to wait) and a dependency down (503); undefined for anything else.
 */
export function pageRefusal(err: unknown): PageRefusal | undefined {
  if (err instanceof TooManyRequestsError) {
    const seconds = err.retryAfterSeconds;
    return {
      status: 429,
      error: `Too many attempts: try again in ${seconds} seconds`,
      retryAfterSeconds: seconds,
    };
  }
  if (err instanceof BaseError && err.status === 503) {
    return {
      status: 503,
      error: 'Login is unavailable right now; try again later',
      retryAfterSeconds:
        err instanceof ServiceUnavailableError
          ? err.retryAfterSeconds
          : DEFAULT_RETRY_AFTER_SECONDS,
    };
  }
  return undefined;
}

/** The answer of a script step for an interaction that is gone. */
function expiredStep(): SiweStep {
  return {
    status: 400,
    body: { error: 'This login page has expired: return to the site and start the login again' },
  };
}

/** Runs a Sign-In with Ethereum step; a refusal becomes the message the page shows. */
async function siweStep(step: () => Promise<SiweStep>): Promise<SiweStep> {
  try {
    return await step();
  } catch (err) {
    const refusal = pageRefusal(err);
    if (refusal) {
      const { status, error, retryAfterSeconds } = refusal;
      return { status, body: { error }, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) };
    }
    if (err instanceof BaseError && err.status < 500) {
      return { status: err.status, body: { error: err.message } };
    }
    throw err;
  }
}

/** Whether a client's login page has QR logins: it has request id prefixes (the login request). */
function offersQrLogins(client: Pick<Client, 'requestIdPrefixes'>): boolean {
  return client.requestIdPrefixes.length > 0;
}

function restartKey(uid: string): string {
  return `oidc-restart:${uid}`;
}

function qrKey(uid: string): string {
  return `oidc-qr:${uid}`;
}
