import { createLocalJWKSet } from 'jose';
import type Provider from 'oidc-provider';
import { createKeySetJwtVerifier, type JwtVerifier } from '@itp/auth-jwt';
import { resolveInternalToken } from '@itp/crypto';
import type { AuthJwks } from '@itp/schemas';
import {
  acceptedInternalApiTokens,
  defineApp,
  HttpService,
  rememberedQrDataUrl,
  type Logger,
  type ResourceScope,
} from '@itp/service-kit';
import {
  kvReadinessCheck,
  openAppStores,
  SqlOneTimeMarks,
  sqlReadinessCheck,
  type KvStore,
  type OneTimeMarks,
  type SqlDatabase,
} from '@itp/stores';
import { ClientAdmin } from './clients/client-admin.js';
import { ClientAuthenticator } from './clients/client-authenticator.js';
import type { ClientRepository } from './clients/client-repository.js';
import {
  authPublicUrl,
  authServiceConfigSchema,
  oidcIssuer,
  siweChain,
  type AuthConfig,
} from './config.js';
import type { AuthDatabase } from './db/database.js';
import { authMigrations } from './db/migrations.js';
import { SqlClientRepository } from './db/sql-client-repository.js';
import { SqlLoginApprovals } from './db/sql-login-approvals.js';
import { SqlOidcRecords } from './db/sql-oidc-records.js';
import { KnownClients } from './rate-limit/known-clients.js';
import { SqlUserRepository } from './db/sql-user-repository.js';
import { ensureDemoData } from './dev/demo-data.js';
import { authRouter } from './http/auth-router.js';
import { internalRouter } from './http/internal-router.js';
import { oid4vpRouter } from './http/oid4vp-router.js';
import {
  authorizationServerMetadata,
  OIDC_AUTHORIZATION_SERVER_METADATA_PATH,
  oidcRouter,
} from './http/oidc-router.js';
import { resolveSigningKeysJson } from './jwt/dev-signing-keys.js';
import { parseSigningKeys } from './jwt/signing-keys.js';
import { TokenIssuer } from './jwt/token-issuer.js';
import { LoginResults } from './login/login-results.js';
import { PasswordLogin } from './login/password-login.js';
import { LoginRequestStore } from './login-requests/login-request-store.js';
import { LoginRequests } from './login-requests/login-requests.js';
import { Argon2PasswordHasher } from './passwords/argon2-password-hasher.js';
import type { PasswordHasher } from './passwords/password-hasher.js';
import { FailureBackoff } from './rate-limit/failure-backoff.js';
import { FailureCounter } from './rate-limit/failure-counter.js';
import { PollThrottle } from './rate-limit/poll-throttle.js';
import { UserAdmin } from './users/user-admin.js';
import type { UserRepository } from './users/user-repository.js';
import { UserStatus } from './users/user-status.js';
import { DidServiceOid4vpVerifier } from './oid4vp/did-service-oid4vp-verifier.js';
import { Oid4vpLogin } from './oid4vp/oid4vp-login.js';
import { Oid4vpSessionStore } from './oid4vp/oid4vp-session-store.js';
import { DidServiceLoginVpVerifier } from './vp-login/did-service-login-vp-verifier.js';
import { VpLogin } from './vp-login/vp-login.js';
import { kvOidcAdapter } from './oidc/kv-oidc-adapter.js';
import { observeOidcProvider } from './oidc/oidc-metrics.js';
import { OidcLogin } from './oidc/oidc-login.js';
import { clientLookup, createOidcProvider } from './oidc/oidc-provider.js';
import { SqlLinkedAddresses } from './db/sql-linked-addresses.js';
import { SiweLogin } from './siwe/siwe-login.js';
import { AccountService } from './account/account-service.js';
import {
  CredentialRevocationDelivery,
  DidServiceCredentialRevoker,
} from './account/credential-revocations.js';
import { SqlCredentialRevocations } from './db/sql-credential-revocations.js';
import { SqlLoginHistory } from './db/sql-login-history.js';
import { OidcAccountGrants } from './oidc/account-grants.js';
import { SiweNonces } from './siwe/siwe-nonces.js';
import { ChainSiweSignatureVerifier } from './siwe/siwe-signature-verifier.js';

/**
 * The service's domain operations, as the HTTP edge (http/, internal/) and the tests reach them:
 * password login, web-site login requests, VP login (auth-user-with-vp: did-service checks the
 * VP, the replay mark is kept here, then approval and login), user status, and the admin
 * operations the dev seed uses.
 */
export interface AuthDomain {
  kv: KvStore;
  database: SqlDatabase<AuthDatabase>;
  users: UserRepository;
  clients: ClientRepository;
  hasher: PasswordHasher;
  userAdmin: UserAdmin;
  clientAdmin: ClientAdmin;
  loginRequests: LoginRequests;
  loginResults: LoginResults;
  passwordLogin: PasswordLogin;
  /** auth-user-with-vp: the VP checked by did-service, used once, then login (and approval). */
  vpLogin: VpLogin;
  /** OpenID4VP login of web-site login requests: did-service signs and checks, approval here. */
  oid4vp: Oid4vpLogin;
  /** Relying parties' HTTP Basic (and the OpenID Connect provider's client secrets). */
  clientAuthenticator: ClientAuthenticator;
  /** Sign-In with Ethereum (docs/api.md §11); undefined without ETH_RPC_URL and CHAIN_ID. */
  siwe: SiweLogin | undefined;
  /** The OpenID Connect provider and its login step (docs/api.md §9). */
  oidc: { provider: Provider; login: OidcLogin; issuer: string; assets: string };
  /** `/internal/v1/users/status`: may this user still act? */
  userStatus: UserStatus;
  /**
   * did-service's token for this service's internal API (INTERNAL_TOKEN_DID_TO_AUTH; dev: the
   * generated file); undefined: no internal API.
   */
  callerToken: string | undefined;
  /** Verifies tokens of this service with its own keys (no HTTP). */
  ownTokens: JwtVerifier;
  jwks: AuthJwks;
  /** The caller's account (docs/api.md §12): ways in, logout everywhere, revoke a site. */
  account: AccountService;
  /** Delivers a reset's credential revocations to did-service (undefined: no did-service). */
  revocationDelivery: CredentialRevocationDelivery | undefined;
}

export interface AuthServiceParts {
  service: HttpService;
  domain: AuthDomain;
}

const APP_NAME = 'auth-service';

/**
 * Longest wait for did-service's OpenID4VP calls: auth-user-by-app waits for the request object
 * (and answers without openid4vpUri after this), a wallet's answer for its check.
 */
const OID4VP_DID_SERVICE_TIMEOUT_MS = 5_000;

/** Longest life of the OpenID Connect login page's QR codes (a reload after it makes new ones). */
const OIDC_QR_WAIT_SECONDS = 300;

/** Opens the stores (through the scope), migrates, loads the signing keys and wires the domain. */
async function buildDomain(
  config: AuthConfig,
  logger: Logger,
  scope: ResourceScope,
  clock?: () => number,
): Promise<AuthDomain> {
  const { kv, sql: database } = await openAppStores<AuthDatabase>(config, scope, logger, {
    app: APP_NAME,
    keyPrefix: 'auth:',
    migrations: authMigrations,
  });
  const signingKeys = await parseSigningKeys(await resolveSigningKeysJson(config));
  const [currentKey] = signingKeys;
  if (!currentKey) throw new Error('no signing key');

  const hasher = new Argon2PasswordHasher();
  await hasher.verifyDummy('warm-up');
  const users = new SqlUserRepository(database);
  const clients = new SqlClientRepository(database);
  const addresses = new SqlLinkedAddresses(database);
  const revocations = new SqlCredentialRevocations(database);
  const history = new SqlLoginHistory(database);
  const userAdmin = new UserAdmin({ users, hasher, addresses, revocations, history });
  const clientAdmin = new ClientAdmin(clients, hasher);
  if (config.APP_ENV === 'development') {
    const seeded = await ensureDemoData(userAdmin, clientAdmin, authPublicUrl(config));
    logger.info(seeded, 'development mode: demo user and demo client present');
  }

  const jwks: AuthJwks = { keys: signingKeys.map((key) => key.publicJwk) };
  const tokens = new TokenIssuer(currentKey, {
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    ttlSeconds: config.JWT_TTL_SECONDS,
  });
  const ownTokens = createKeySetJwtVerifier({
    keySet: createLocalJWKSet(jwks),
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  });
  const windowMs = config.LOGIN_FAILURE_WINDOW_SECONDS * 1000;
  const failuresPerIp = new FailureCounter(kv, {
    name: 'login-ip',
    max: config.LOGIN_MAX_FAILURES_PER_IP,
    windowMs,
  });
  const failuresPerIdAndIp = new FailureCounter(kv, {
    name: 'login-id-ip',
    max: config.LOGIN_MAX_FAILURES_PER_ID,
    windowMs,
  });
  const failuresPerId = new FailureBackoff(kv, {
    name: 'login-id',
    freeFailures: config.LOGIN_MAX_FAILURES_PER_ID,
    windowMs,
    maxDelayMs: config.LOGIN_ID_MAX_DELAY_SECONDS * 1000,
  });
  const loginResults = new LoginResults({ users, tokens, history, logger });
  const passwordLogin = new PasswordLogin({
    users,
    hasher,
    results: loginResults,
    ownTokens,
    failuresPerIdAndIp,
    failuresPerId,
    failuresPerIp,
    knownClients: new KnownClients(kv),
    logger,
  });
  // One-time rules that must survive a Redis that restarts empty or goes back in time
  // (docs/api.md §2, §8, §9, §11): SQL. Used login VPs and SIWE nonces keep their table of 0002.
  const approvals = new SqlLoginApprovals(database);
  const usedLoginProofs = new SqlOneTimeMarks(database, { table: 'auth_vp_uses' });
  const oneTimeMarks = new SqlOneTimeMarks(database, { table: 'auth_one_time_marks' });
  const loginRequests = new LoginRequests(new LoginRequestStore(kv), users, {
    resultGraceMs: config.LOGIN_RESULT_GRACE_SECONDS * 1000,
    approvals,
    ...(clock ? { clock } : {}),
  });
  const vpLogin = new VpLogin(
    {
      verifier: new DidServiceLoginVpVerifier({
        baseUrl: config.DID_SERVICE_INTERNAL_URL,
        internalApiToken: resolveInternalToken(config, 'INTERNAL_TOKEN_AUTH_TO_DID'),
      }),
      usedVps: usedLoginProofs,
      loginRequests,
      loginResults,
      failuresPerIp,
    },
    { maxAgeSeconds: config.VP_LOGIN_MAX_AGE_SECONDS },
  );
  const oid4vp = new Oid4vpLogin(
    {
      verifier: new DidServiceOid4vpVerifier({
        baseUrl: config.DID_SERVICE_INTERNAL_URL,
        internalApiToken: resolveInternalToken(config, 'INTERNAL_TOKEN_AUTH_TO_DID'),
        timeoutMs: OID4VP_DID_SERVICE_TIMEOUT_MS,
      }),
      sessions: new Oid4vpSessionStore(kv),
      marks: oneTimeMarks,
      loginRequests,
      logger,
    },
    {
      publicUrl: authPublicUrl(config),
      resultGraceMs: config.LOGIN_RESULT_GRACE_SECONDS * 1000,
      ...(clock ? { clock } : {}),
    },
  );
  const clientAuthenticator = new ClientAuthenticator(
    clients,
    hasher,
    new FailureCounter(kv, {
      name: 'client-ip',
      max: config.LOGIN_MAX_FAILURES_PER_IP,
      windowMs,
    }),
    { cacheTtlMs: config.CLIENT_AUTH_CACHE_SECONDS * 1000 },
  );
  const siwe = buildSiweLogin(config, {
    kv,
    usedNonces: usedLoginProofs,
    addresses,
    users,
    loginResults,
    // SIWE's own failure counters: its refusals never lock password/OIDC logins out (login-ip).
    failuresPerIp: new FailureCounter(kv, {
      name: 'siwe-ip',
      max: config.SIWE_MAX_FAILURES_PER_IP,
      windowMs,
      message: 'Too many refused Sign-In with Ethereum messages from this address; try again later',
    }),
    failuresPerAccount: new FailureCounter(kv, {
      name: 'siwe-id-ip',
      max: config.LOGIN_MAX_FAILURES_PER_ID,
      windowMs,
      message:
        'Too many refused Sign-In with Ethereum messages for this account from this address; try again later',
    }),
    ...(clock ? { clock } : {}),
  });
  const issuer = oidcIssuer(config);
  const issuerPath = new URL(issuer).pathname;
  const oidcRecords = new SqlOidcRecords(database);
  const oidcAdapter = kvOidcAdapter(
    kv,
    clientLookup((id) => clients.findById(id)),
    {
      marks: oneTimeMarks,
      records: oidcRecords,
      maxGrantLifetimeMs:
        Math.max(config.OIDC_SESSION_TTL_SECONDS, config.OIDC_REFRESH_TOKEN_TTL_SECONDS) * 1000,
      // oidc-provider's own times (exp) are the real clock's: so are the marks'.
    },
  );
  const provider = createOidcProvider({
    issuer,
    signingKeys: signingKeys.map((key) => key.privateJwk),
    adapter: oidcAdapter,
    findClient: (id) => clients.findById(id),
    findUser: (id) => users.findById(id),
    verifyClientSecret: (id, secret, address) =>
      clientAuthenticator.verifySecret(id, secret, address),
    interactionUrl: (uid) => `${issuerPath}/interaction/${uid}`,
    assets: `${issuerPath}/assets/`,
    lifetimes: {
      interactionSeconds: config.OIDC_INTERACTION_TTL_SECONDS,
      sessionSeconds: config.OIDC_SESSION_TTL_SECONDS,
      accessTokenSeconds: config.OIDC_TOKEN_TTL_SECONDS,
      idTokenSeconds: config.OIDC_TOKEN_TTL_SECONDS,
      refreshTokenSeconds: config.OIDC_REFRESH_TOKEN_TTL_SECONDS,
    },
    jwksMaxAgeSeconds: config.JWKS_MAX_AGE_SECONDS,
  });
  provider.on('server_error', (_ctx: unknown, err: unknown) => {
    logger.error({ err }, 'the OpenID Connect provider failed on a request');
  });
  // Back-channel logout posts (never the logout token itself): the site's answer or failure.
  provider.on('backchannel.success', (_ctx: unknown, client: { clientId: string }) => {
    logger.info({ clientId: client.clientId }, 'back-channel logout delivered');
  });
  provider.on('backchannel.error', (_ctx: unknown, err: unknown, client: { clientId: string }) => {
    logger.warn(
      { clientId: client.clientId, reason: err instanceof Error ? err.message : String(err) },
      'back-channel logout not delivered',
    );
  });
  const oidcLogin = new OidcLogin(
    {
      provider,
      passwordLogin,
      loginRequests,
      oid4vp,
      siwe,
      clients,
      kv,
      loginResults,
      qrDataUrl: rememberedQrDataUrl(),
      ...(config.OIDC_QR_PAGES_PER_IP_PER_MINUTE > 0
        ? {
            qrPagesPerIp: new FailureCounter(kv, {
              name: 'oidc-qr-ip',
              max: config.OIDC_QR_PAGES_PER_IP_PER_MINUTE,
              windowMs: 60_000,
            }),
          }
        : {}),
    },
    { qrWaitSeconds: OIDC_QR_WAIT_SECONDS, ...(clock ? { clock } : {}) },
  );
  return {
    kv,
    database,
    users,
    clients,
    hasher,
    userAdmin,
    clientAdmin,
    loginRequests,
    loginResults,
    passwordLogin,
    vpLogin,
    oid4vp,
    clientAuthenticator,
    siwe,
    oidc: { provider, login: oidcLogin, issuer, assets: `${issuerPath}/assets/` },
    userStatus: new UserStatus(users),
    callerToken: resolveInternalToken(config, 'INTERNAL_TOKEN_DID_TO_AUTH'),
    ownTokens,
    jwks,
    account: new AccountService({
      users,
      addresses,
      grants: new OidcAccountGrants(kv, oidcAdapter, oidcRecords),
      clients,
    }),
    revocationDelivery: credentialRevocationDelivery(config, revocations, logger),
  };
}

/** The outbox of a reset's credential revocations, delivered to did-service when it is known. */
function credentialRevocationDelivery(
  config: AuthConfig,
  outbox: SqlCredentialRevocations,
  logger: Logger,
): CredentialRevocationDelivery | undefined {
  const token = resolveInternalToken(config, 'INTERNAL_TOKEN_AUTH_TO_DID');
  if (!config.DID_SERVICE_INTERNAL_URL || !token) return undefined;
  return new CredentialRevocationDelivery(
    outbox,
    new DidServiceCredentialRevoker({
      baseUrl: config.DID_SERVICE_INTERNAL_URL,
      internalApiToken: token,
    }),
    logger,
    { intervalMs: config.CREDENTIAL_REVOCATION_INTERVAL_MS },
  );
}

/** Sign-In with Ethereum's parts, when a chain is configured (docs/api.md §11). */
function buildSiweLogin(
  config: AuthConfig,
  parts: {
    kv: KvStore;
    usedNonces: OneTimeMarks;
    addresses: SqlLinkedAddresses;
    users: UserRepository;
    loginResults: LoginResults;
    failuresPerIp: FailureCounter;
    failuresPerAccount: FailureCounter;
    clock?: () => number;
  },
): SiweLogin | undefined {
  const chain = siweChain(config);
  if (!chain) return undefined;
  const publicUrl = authPublicUrl(config);
  return new SiweLogin(
    {
      nonces: new SiweNonces(parts.kv, parts.usedNonces, parts.clock),
      verifier: new ChainSiweSignatureVerifier({
        rpcUrl: chain.rpcUrl,
        timeoutMs: chain.timeoutMs,
      }),
      addresses: parts.addresses,
      users: parts.users,
      loginResults: parts.loginResults,
      failuresPerIp: parts.failuresPerIp,
      failuresPerAccount: parts.failuresPerAccount,
      ...(config.SIWE_NONCES_PER_IP_PER_MINUTE > 0
        ? {
            noncesPerIp: new FailureCounter(parts.kv, {
              name: 'siwe-nonce-ip',
              max: config.SIWE_NONCES_PER_IP_PER_MINUTE,
              windowMs: 60_000,
            }),
          }
        : {}),
      ...(config.SIWE_CONTRACT_CHECKS_PER_IP_PER_MINUTE > 0
        ? {
            contractChecksPerIp: new FailureCounter(parts.kv, {
              name: 'siwe-contract-ip',
              max: config.SIWE_CONTRACT_CHECKS_PER_IP_PER_MINUTE,
              windowMs: 60_000,
              message: 'Too many smart-account signature checks from this address; try again later',
            }),
          }
        : {}),
    },
    {
      expected: { domain: new URL(publicUrl).host, uri: publicUrl, chainId: chain.chainId },
      ...(parts.clock ? { clock: parts.clock } : {}),
    },
  );
}

/**
 * The one wiring of the service: the domain (stores opened through `scope`), the HTTP edge, the
 * readiness checks. buildApp and buildAuthService both run it.
 */
async function wireAuthService(
  config: AuthConfig,
  logger: Logger,
  scope: ResourceScope,
  clock?: () => number,
): Promise<AuthServiceParts> {
  const domain = await buildDomain(config, logger, scope, clock);
  const { kv, database } = domain;
  // A reset's credential revocations reach did-service also when it was down at the reset.
  const delivery = domain.revocationDelivery;
  if (delivery) {
    delivery.start();
    scope.onClose('credential revocation delivery', () => delivery.stop());
  }
  const service = new HttpService({ name: APP_NAME, config, logger });
  observeOidcProvider(domain.oidc.provider, service.metrics);
  service.app.set('trust proxy', config.TRUST_PROXY);
  // The OpenID Connect provider (its own error pages and OAuth bodies): before the rest. Its RFC
  // 8414 metadata location goes on as its discovery request.
  service.app.get(OIDC_AUTHORIZATION_SERVER_METADATA_PATH, authorizationServerMetadata);
  service.app.use(
    '/v2/auth/oidc',
    oidcRouter({
      provider: domain.oidc.provider,
      login: domain.oidc.login,
      publicUrl: authPublicUrl(config),
      assets: domain.oidc.assets,
      issuerPath: new URL(domain.oidc.issuer).pathname,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      logger,
      branding: {
        ...(config.LOGIN_PAGE_PRODUCT_NAME ? { productName: config.LOGIN_PAGE_PRODUCT_NAME } : {}),
        ...(config.LOGIN_PAGE_LOGO_URL ? { logoUrl: config.LOGIN_PAGE_LOGO_URL } : {}),
        ...(config.LOGIN_PAGE_PRIMARY_COLOR
          ? { primaryColor: config.LOGIN_PAGE_PRIMARY_COLOR }
          : {}),
      },
      ...(config.OIDC_AUTHORIZATIONS_PER_IP_PER_MINUTE > 0
        ? {
            authorizationsPerIp: new FailureCounter(kv, {
              name: 'oidc-auth-ip',
              max: config.OIDC_AUTHORIZATIONS_PER_IP_PER_MINUTE,
              windowMs: 60_000,
            }),
          }
        : {}),
    }),
  );
  // What wallets call (OAuth error bodies): before the rest of /v2/auth.
  service.app.use(
    '/v2/auth/oid4vp',
    oid4vpRouter({ oid4vp: domain.oid4vp, bodyLimitBytes: config.BODY_LIMIT_BYTES, logger }),
  );
  service.app.use(
    '/v2/auth',
    authRouter({
      passwordLogin: domain.passwordLogin,
      vpLogin: domain.vpLogin,
      oid4vp: domain.oid4vp,
      loginRequests: domain.loginRequests,
      loginResults: domain.loginResults,
      clientAuthenticator: domain.clientAuthenticator,
      pollThrottle: new PollThrottle(kv, config.LOGIN_POLL_MIN_INTERVAL_MS),
      jwks: domain.jwks,
      jwksMaxAgeSeconds: config.JWKS_MAX_AGE_SECONDS,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      siwe: domain.siwe,
      ownTokens: domain.ownTokens,
      users: domain.users,
      account: domain.account,
      stepUpMaxAgeSeconds: config.STEP_UP_MAX_AGE_SECONDS,
    }),
  );
  if (domain.callerToken) {
    // did-service's calls: on the internal listener only (INTERNAL_PORT), never the public port.
    service.internal.use(
      '/internal/v1',
      internalRouter({
        internalApiToken: acceptedInternalApiTokens(
          domain.callerToken,
          config.INTERNAL_API_ACCEPTED_TOKENS,
        ),
        userStatus: domain.userStatus,
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
      }),
    );
  }
  service.addReadinessCheck(kvReadinessCheck(kv)).addReadinessCheck(sqlReadinessCheck(database));
  return { service, domain };
}

/** The composition root runMain calls (apps/auth-service/src/main.ts). */
export const buildApp = defineApp(
  APP_NAME,
  authServiceConfigSchema,
  async (config, logger, scope) => {
    const { service } = await wireAuthService(config, logger, scope);
    return service;
  },
);

/** What tests may hand buildAuthService besides the config. */
export interface AuthServiceTestOptions {
  /** The login requests' clock (default Date.now): tests move it past a waitTime. */
  clock?: () => number;
}

/**
 * buildApp with access to the domain (tests): the same wiring and the same resource handling
 * (what a failed start opened is closed; the service closes the stores when it shuts down).
 */
export async function buildAuthService(
  config: AuthConfig,
  logger: Logger,
  options: AuthServiceTestOptions = {},
): Promise<AuthServiceParts> {
  let domain: AuthDomain | undefined;
  const build = defineApp(APP_NAME, authServiceConfigSchema, async (c, l, scope) => {
    const wired = await wireAuthService(c, l, scope, options.clock);
    domain = wired.domain;
    return wired.service;
  });
  const service = await build(config, logger);
  if (!domain) throw new Error('auth-service was built without its domain');
  return { service, domain };
}
