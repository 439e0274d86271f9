import {
  createHash,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type KeyObject,
  sign as signWithKey,
} from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { JWK } from 'jose';
import Provider, {
  type Account,
  type AdapterFactory,
  type AdapterPayload,
  type Configuration,
  ExternalSigningKey,
  interactionPolicy,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { Client } from '../clients/client.js';
import type { User } from '../users/user.js';
import { unlessUnavailable } from './oidc-unavailable.js';
import { renderOidcErrorPage, renderLogoutPage, renderLoggedOutPage } from './oidc-pages.js';

/** How the user logged in, as the id_token's `amr` names it (docs/api.md §9). */
export type OidcLoginMethod = 'pwd' | 'app' | 'vp' | 'siwe';

/** Scopes and the claims each one releases (OpenID Connect Core §5.4). */
export const OIDC_SCOPES = {
  openid: ['sub', 'auth_time', 'amr'],
  profile: ['name'],
  email: ['email'],
  phone: ['phone_number'],
} as const;

export interface OidcLifetimes {
  /** A login page (interaction) must be completed within this. */
  interactionSeconds: number;
  /** The provider's browser session (a second authorization within it skips the login page). */
  sessionSeconds: number;
  accessTokenSeconds: number;
  idTokenSeconds: number;
  /** A refresh token (scope offline_access) from the login; rotations do not extend it. */
  refreshTokenSeconds: number;
}

/**
 * The scopes a relying party may ask for: the claims' scopes, and `offline_access` for a refresh
 * token (honoured with `prompt=consent`, OpenID Connect Core §11).
 */
export const OIDC_SUPPORTED_SCOPES = [...Object.keys(OIDC_SCOPES), 'offline_access'];

/**
 * The scopes a grant holds for a site's `requested` scope parameter: every claim scope (clients
 * are first-party), and offline_access when asked for (oidc-provider keeps it in the request only
 * with prompt=consent, OpenID Connect Core §11).
 */
export function grantedScopes(requested: unknown): string {
  const asked = String(requested ?? '').split(' ');
  return [
    ...Object.keys(OIDC_SCOPES),
    ...(asked.includes('offline_access') ? ['offline_access'] : []),
  ].join(' ');
}

/** What a relying party may redeem at the token endpoint. */
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

export interface OidcProviderDeps {
  /** `<public base>/v2/auth/oidc`. */
  issuer: string;
  /** The service's signing keys (private JWKs; the first signs), as for its own tokens. */
  signingKeys: JWK[];
  /**
   * The RSA keys of JWT_SIGNING_KEYS (private JWKs, RS256; the first signs): id_tokens for the
   * sites registered with RS256. Empty: RS256 is not offered (a warning at start).
   */
  rsaSigningKeys?: JWK[];
  adapter: AdapterFactory;
  findClient: (id: string) => Promise<Client | undefined>;
  findUser: (id: string) => Promise<User | undefined>;
  /** Checks a relying party's secret (argon2, per-IP failure limit); false refuses it. */
  verifyClientSecret: (clientId: string, secret: string, address: string) => Promise<boolean>;
  /** The login page of an interaction, as the browser reaches it. */
  interactionUrl: (uid: string) => string;
  /** The absolute path of the pages' style and script (`<issuer path>/assets/`). */
  assets: string;
  lifetimes: OidcLifetimes;
  /** JWKS_MAX_AGE_SECONDS: the provider's `jwks` is cached as long as the service's REST JWKS. */
  jwksMaxAgeSeconds: number;
}

/**
 * Cookie signing keys derived from the signing keys (HKDF-SHA256): no further secret to manage,
 * and a signing-key rotation rotates them too (the old keys still verify while they are listed).
 */
export function cookieKeysFrom(signingKeys: JWK[]): string[] {
  return signingKeys.map((jwk) => {
    if (typeof jwk.d !== 'string') throw new Error('a signing key without its private part');
    const derived = hkdfSync('sha256', Buffer.from(jwk.d, 'base64url'), '', 'itp oidc cookies', 32);
    return Buffer.from(derived).toString('base64url');
  });
}

/**
 * A P-256 signing key whose ES256 signatures (id_tokens, userinfo and logout tokens) node:crypto
 * makes on the event loop: oidc-provider otherwise signs through jose over WebCrypto, a job and a
 * promise per signature at three times the CPU (ADR 0037, amendment). The key is the same private
 * JWK (same kid, same published public key); oidc-provider's `ExternalSigningKey` is its hook for
 * keys it does not hold itself (features.externalSigningSupport, acknowledged at its version: a
 * later, incompatible version of the experiment stops the service at start, not silently).
 */
export class NodeEs256SigningKey extends ExternalSigningKey {
  readonly #privateKey: KeyObject;
  readonly #publicKey: KeyObject;
  #kid: string | undefined;
  #alg: string | undefined;

  constructor(jwk: JWK) {
    super();
    this.#privateKey = createPrivateKey({ key: jwk as never, format: 'jwk' });
    this.#publicKey = createPublicKey(this.#privateKey);
    this.#kid = typeof jwk.kid === 'string' ? jwk.kid : undefined;
    this.#alg = typeof jwk.alg === 'string' ? jwk.alg : undefined;
  }

  // The JWK's kid and alg (oidc-provider computes a kid, as for a JWK, when there is none).
  override get kid(): string | undefined {
    return this.#kid;
  }

  override set kid(value: string | undefined) {
    this.#kid = value;
  }

  override get alg(): string | undefined {
    return this.#alg;
  }

  override set alg(value: string | undefined) {
    this.#alg = value;
  }

  /** The public key (oidc-provider publishes it in its JWKS; never the private one). */
  override keyObject(): KeyObject {
    return this.#publicKey;
  }

  /** An ES256 signature (JWS: r ‖ s, 64 bytes) of the signing input. */
  override async sign(data: Uint8Array): Promise<Uint8Array> {
    return signWithKey('sha256', data, { key: this.#privateKey, dsaEncoding: 'ieee-p1363' });
  }
}

/** The provider's key for a private JWK: P-256 keys sign through node:crypto, others as JWKs. */
export function providerSigningKey(jwk: JWK): JWK | NodeEs256SigningKey {
  return jwk.kty === 'EC' && jwk.crv === 'P-256' && typeof jwk.d === 'string'
    ? new NodeEs256SigningKey(jwk)
    : jwk;
}

/** A relying party as oidc-provider reads it; undefined when it may not use OpenID Connect. */
export function clientMetadata(client: Client | undefined): AdapterPayload | undefined {
  if (!client || !client.enabled || client.redirectUris.length === 0) return undefined;
  return {
    client_id: client.id,
    client_name: client.name,
    // Never compared (verifyClientSecret checks the argon2 hash); not the secret, not secret.
    client_secret: createHash('sha256').update(`unused:${client.secretHash}`).digest('base64url'),
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    ...(client.backchannelLogoutUri
      ? {
          backchannel_logout_uri: client.backchannelLogoutUri,
          backchannel_logout_session_required: true,
        }
      : {}),
    grant_types: GRANT_TYPES,
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    id_token_signed_response_alg: client.idTokenSigningAlg,
  };
}

/** The claims of a user (OpenID Connect Core §5.1 names); empty fields are left out. */
export function userClaims(user: User): Record<string, string> {
  return {
    sub: user.id,
    name: user.name,
    ...(user.email ? { email: user.email } : {}),
    ...(user.telNo ? { phone_number: user.telNo } : {}),
  };
}

/**
 * When what `findAccount` is asked for began, in epoch seconds: a refresh token's login (its
 * first issue, kept through rotations), a code's or access token's issue, else the browser
 * session's login.
 */
function loginTimeOf(ctx: KoaContextWithOIDC | undefined, token: unknown): number | undefined {
  if (token && typeof token === 'object') {
    const { kind, iiat, iat } = token as { kind?: unknown; iiat?: unknown; iat?: unknown };
    const time = kind === 'RefreshToken' && typeof iiat === 'number' ? iiat : iat;
    return typeof time === 'number' ? time : undefined;
  }
  const loginTs = (ctx?.oidc?.session as { loginTs?: unknown } | undefined)?.loginTs;
  return typeof loginTs === 'number' ? loginTs : undefined;
}

/**
 * oidc-provider's prompts, with one more login check: a browser session whose user findAccount
 * no longer gives (disabled, or changed since that login: see loginTimeOf) logs in again,
 * instead of the provider going on without an account.
 */
function loginPolicy(): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  policy
    .get('login')
    ?.checks.add(
      new interactionPolicy.Check(
        'account_changed',
        'The user changed since this session logged in',
        'login_required',
        (ctx) =>
          ctx.oidc.session?.accountId !== undefined && ctx.oidc.account === undefined
            ? interactionPolicy.Check.REQUEST_PROMPT
            : interactionPolicy.Check.NO_NEED_TO_PROMPT,
      ),
    );
  return policy;
}

/** oidc-provider's refusal of a request that names no client at all (lib/shared/client_auth.js). */
const NO_CLIENT_AUTHENTICATION = 'no client authentication mechanism provided';

/** One `WWW-Authenticate` parameter value (RFC 9110 §11.2 quoted-string). */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * What strict clients expect of the provider's answers, where oidc-provider answers otherwise:
 * - a request to the token (or revocation) endpoint with no client authentication at all is 401
 *   `invalid_client` (RFC 6749 §5.2; oidc-provider: 400 `invalid_request`);
 * - every 401 `invalid_client` carries a `WWW-Authenticate` challenge (RFC 9110 §15.5.2;
 *   oidc-provider sends one only when the client used the Authorization header): `Basic`, the
 *   client authentication the clients are registered with;
 * - the JWKS is `Cache-Control: public, max-age=JWKS_MAX_AGE_SECONDS`, as the REST JWKS.
 */
function strictClientAnswers(
  issuer: string,
  jwksMaxAgeSeconds: number,
): Parameters<Provider['use']>[0] {
  return async (koaCtx, next) => {
    await next();
    const ctx = koaCtx as unknown as KoaContextWithOIDC;
    if (ctx.oidc?.route === 'jwks' && ctx.status === 200) {
      ctx.set('Cache-Control', `public, max-age=${jwksMaxAgeSeconds}`);
      return;
    }
    const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
    if (
      ctx.status === 400 &&
      body?.error === 'invalid_request' &&
      body.error_description === NO_CLIENT_AUTHENTICATION
    ) {
      ctx.status = 401;
      ctx.body = {
        error: 'invalid_client',
        error_description:
          'Client authentication is required: client_secret_basic or client_secret_post',
      };
    }
    const error = (ctx.body as { error?: unknown } | undefined)?.error;
    if (ctx.status === 401 && error === 'invalid_client' && !ctx.response.get('WWW-Authenticate')) {
      ctx.set('WWW-Authenticate', `Basic realm=${quoted(issuer)}, error="invalid_client"`);
    }
  };
}

/** The client address as express determined it (TRUST_PROXY), for the per-IP failure limit. */
function clientAddress(ctx: KoaContextWithOIDC | undefined): string {
  const req = ctx?.req as (IncomingMessage & { ip?: string }) | undefined;
  return req?.ip ?? req?.socket.remoteAddress ?? '';
}

/**
 * The OpenID Connect provider (oidc-provider, a certified implementation): Authorization Code with
 * PKCE S256 required, client_secret_basic / client_secret_post, exact redirect URIs, ES256 (or RS256)
 * id_tokens from the service's signing keys, userinfo, end-session. Registered clients are
 * first-party: consent is implicit (a grant for the requested scopes is made on the spot).
 */
export function createOidcProvider(deps: OidcProviderDeps): Provider {
  const { lifetimes } = deps;
  const rsaKeys = deps.rsaSigningKeys ?? [];
  // OpenID Connect Discovery 1.0 §3: RS256 MUST be supported for id_tokens (when an RSA key is
  // configured); ES256 stays every site's default.
  const idTokenAlgs: Array<'ES256' | 'RS256'> = rsaKeys.length > 0 ? ['ES256', 'RS256'] : ['ES256'];
  const configuration: Configuration = {
    adapter: deps.adapter,
    jwks: { keys: [...deps.signingKeys.map(providerSigningKey), ...rsaKeys] as never },
    cookies: {
      keys: cookieKeysFrom(deps.signingKeys),
      long: { signed: true, sameSite: 'lax' },
      short: { signed: true, sameSite: 'lax' },
    },
    claims: Object.fromEntries(
      Object.entries(OIDC_SCOPES).map(([scope, claims]) => [scope, [...claims]]),
    ),
    scopes: OIDC_SUPPORTED_SCOPES,
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    enabledJWA: {
      idTokenSigningAlgValues: idTokenAlgs,
      userinfoSigningAlgValues: idTokenAlgs,
      requestObjectSigningAlgValues: ['ES256'],
    },
    clientDefaults: {
      grant_types: GRANT_TYPES,
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
    },
    features: {
      devInteractions: { enabled: false },
      // The P-256 keys sign through node:crypto (NodeEs256SigningKey).
      externalSigningSupport: { enabled: true, ack: 'experimental-01' },
      userinfo: { enabled: true },
      // RFC 7009: a site revokes a refresh token (and what its grant issued) at logout.
      revocation: { enabled: true },
      // OpenID Connect Back-Channel Logout 1.0: a logout at the provider posts a logout token to
      // each site of the session that registered a back-channel logout URI.
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = renderLogoutPage(deps.assets, form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = renderLoggedOutPage(deps.assets);
        },
      },
    },
    findAccount: async (ctx, sub, token): Promise<Account | undefined> => {
      const user = await unlessUnavailable(() => deps.findUser(sub));
      if (!user || !user.enabled) return undefined;
      // A password reset, a disable or an enable (the user's updatedAt) ends what came before
      // it: refresh tokens from an earlier login, older codes and access tokens, and browser
      // sessions (the login page again).
      // A logout everywhere (the user's token epoch, docs/api.md §12) likewise.
      const since = loginTimeOf(ctx, token);
      const ended = Math.max(Math.floor(user.updatedAt / 1000), user.tokensValidAfter - 1);
      if (since !== undefined && ended > since) return undefined;
      const claims = userClaims(user);
      return { accountId: user.id, claims: async () => ({ ...claims, sub: user.id }) };
    },
    // Registered clients are first-party: the requested scopes are granted without a prompt.
    loadExistingGrant: async (ctx) => {
      const { oidc } = ctx;
      if (!oidc.client || !oidc.session?.accountId) return undefined;
      const grantId =
        oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      if (grantId) {
        const existing = await oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope(grantedScopes(oidc.params?.scope));
      await grant.save();
      return grant;
    },
    interactions: {
      policy: loginPolicy(),
      url: (_ctx, interaction) => deps.interactionUrl(interaction.uid),
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = renderOidcErrorPage(deps.assets, out);
    },
    ttl: {
      Interaction: lifetimes.interactionSeconds,
      Session: lifetimes.sessionSeconds,
      // A grant with offline_access outlives the refresh tokens it issues; others, the session.
      Grant: (_ctx, grant) =>
        grant.getOIDCScope().split(' ').includes('offline_access')
          ? Math.max(lifetimes.sessionSeconds, lifetimes.refreshTokenSeconds)
          : lifetimes.sessionSeconds,
      AuthorizationCode: 60,
      AccessToken: lifetimes.accessTokenSeconds,
      IdToken: lifetimes.idTokenSeconds,
      // From the login: a rotated refresh token keeps what was left of its predecessor's life.
      RefreshToken: (ctx) =>
        ctx?.oidc.entities.RotatedRefreshToken?.remainingTTL ?? lifetimes.refreshTokenSeconds,
    },
    // Every use of a refresh token gives a new one; the used one is consumed, and using it again
    // revokes the grant (all its tokens): a stolen, already used token ends the session.
    rotateRefreshToken: () => true,
    clockTolerance: 5,
    // The provider's only outbound requests are back-channel logout posts to URIs the operator
    // registered (no client-supplied URI is ever fetched: no dynamic registration, request_uri
    // or client jwks_uri), so they may point at private or cluster-internal addresses; the
    // provider's special-use-address block (its SSRF guard for client-supplied URIs) is off.
    fetch: (url, options) => {
      const { dispatcher: _ssrfGuard, ...rest } = options as RequestInit & { dispatcher?: unknown };
      return globalThis.fetch(url, rest);
    },
  };
  const provider = new Provider(deps.issuer, configuration);
  // Behind the gateway: the router sets X-Forwarded-Proto/Host from PUBLIC_URL (not the client).
  provider.proxy = true;
  provider.use(strictClientAnswers(deps.issuer, deps.jwksMaxAgeSeconds));

  // Client secrets are stored as argon2 hashes: the one comparison the provider makes is ours.
  const prototype = provider.Client.prototype as unknown as {
    compareClientSecret(this: { clientId: string }, actual: string): Promise<boolean>;
  };
  prototype.compareClientSecret = async function compareClientSecret(actual) {
    const ctx = Provider.ctx as KoaContextWithOIDC | undefined;
    return unlessUnavailable(() =>
      deps.verifyClientSecret(this.clientId, actual, clientAddress(ctx)),
    );
  };
  return provider;
}

/** The client rows read in each of the provider's requests (keyed by its Koa context). */
const rowsOfRequest = new WeakMap<object, Map<string, Promise<Client | undefined>>>();

/**
 * `findClient` read once per client and provider request: the provider's Client.find and its
 * client authentication (compareClientSecret) read the same row, so a token request reads it once
 * instead of twice. Outside a request (no Provider.ctx) every call reads; a failed read is not
 * kept. A client changed or disabled is seen by the next request, as before (ADR 0037).
 */
export function clientReadOncePerRequest(
  findClient: (id: string) => Promise<Client | undefined>,
): (id: string) => Promise<Client | undefined> {
  return (id) => {
    const ctx = Provider.ctx as object | undefined;
    if (!ctx) return findClient(id);
    let rows = rowsOfRequest.get(ctx);
    if (!rows) {
      rows = new Map();
      rowsOfRequest.set(ctx, rows);
    }
    const known = rows.get(id);
    if (known) return known;
    const read = findClient(id);
    rows.set(id, read);
    read.catch(() => rows.delete(id));
    return read;
  };
}

/** The adapter's client lookup: the relying party from the database, as provider metadata. */
export function clientLookup(
  findClient: (id: string) => Promise<Client | undefined>,
): (id: string) => Promise<AdapterPayload | undefined> {
  return async (id) => clientMetadata(await unlessUnavailable(() => findClient(id)));
}
