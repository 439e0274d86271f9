import type Provider from 'oidc-provider';
import type { JwtVerifier } from '@itp/auth-jwt';
import type { AuthJwks } from '@itp/schemas';
import { defineApp, HttpService, type Logger, type ResourceScope } from '@itp/service-kit';
import { kvReadinessCheck, sqlReadinessCheck, type KvStore, type SqlDatabase } from '@itp/stores';
import type { AccountService } from './account/account-service.js';
import type { CredentialRevocationDelivery } from './account/credential-revocations.js';
import { wireAccount } from './account/wire-account.js';
import type { ClientAdmin } from './clients/client-admin.js';
import type { ClientAuthenticator } from './clients/client-authenticator.js';
import type { ClientRepository } from './clients/client-repository.js';
import { authServiceConfigSchema, type AuthConfig } from './config.js';
import type { AuthDatabase } from './db/database.js';
import type { FeatureEdge } from './feature.js';
import type { LoginMethods } from './login/login-methods.js';
import type { LoginResults } from './login/login-results.js';
import type { PasswordLogin } from './login/password-login.js';
import { wirePasswordLogin } from './login/wire-password-login.js';
import type { LoginRequests } from './login-requests/login-requests.js';
import { wireLoginRequests } from './login-requests/wire-login-requests.js';
import type { Oid4vpLogin } from './oid4vp/oid4vp-login.js';
import { wireOid4vp } from './oid4vp/wire-oid4vp.js';
import type { OidcLogin } from './oidc/oidc-login.js';
import { wireOidc } from './oidc/wire-oidc.js';
import type { Passkeys } from './passkeys/passkeys.js';
import { wirePasskeys } from './passkeys/wire-passkeys.js';
import type { PasswordHasher } from './passwords/password-hasher.js';
import { wirePresentationRequests } from './presentation-requests/wire-presentation-requests.js';
import type { SiweLogin } from './siwe/siwe-login.js';
import { wireSiwe } from './siwe/wire-siwe.js';
import type { UserAdmin } from './users/user-admin.js';
import type { UserRepository } from './users/user-repository.js';
import type { UserStatus } from './users/user-status.js';
import { wireUserStatus } from './users/wire-user-status.js';
import type { VpLogin } from './vp-login/vp-login.js';
import { wireVpLogin } from './vp-login/wire-vp-login.js';
import { APP_NAME, wireShared } from './wire-shared.js';

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
  /** The login methods offered (ADR 0028): each feature registers its own. */
  loginMethods: LoginMethods;
  passwordLogin: PasswordLogin;
  /** auth-user-with-vp: the VP checked by did-service, used once, then login (and approval). */
  vpLogin: VpLogin;
  /** OpenID4VP login of web-site login requests: did-service signs and checks, approval here. */
  oid4vp: Oid4vpLogin;
  /** Relying parties' HTTP Basic (and the OpenID Connect provider's client secrets). */
  clientAuthenticator: ClientAuthenticator;
  /** Sign-In with Ethereum (docs/api.md §11); undefined without ETH_RPC_URL and CHAIN_ID. */
  siwe: SiweLogin | undefined;
  /** Passkeys (docs/api.md §13): registration, removal, login assertions. */
  passkeys: Passkeys;
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

/**
 * The one wiring of the service: the shared parts (stores opened through `scope`), then each
 * feature's wire-<feature>.ts (its domain parts, its routes, its login method registered), the
 * HTTP edge they make, the readiness checks. buildApp and buildAuthService both run it.
 */
async function wireAuthService(
  config: AuthConfig,
  logger: Logger,
  scope: ResourceScope,
  clock?: () => number,
): Promise<AuthServiceParts> {
  const shared = await wireShared(config, logger, scope, clock);
  const password = wirePasswordLogin(shared);
  const vp = wireVpLogin(shared);
  const oid4vp = wireOid4vp(shared);
  const requests = wireLoginRequests(shared, (id, wait) => oid4vp.oid4vp.start(id, wait));
  const siwe = wireSiwe(shared);
  const passkeys = wirePasskeys(shared);
  const presentations = await wirePresentationRequests(shared);
  const oidc = wireOidc(shared, {
    password: password.passwordLogin,
    approvedRequests: requests.approvedRequests,
    siwe: siwe.siwe,
    oid4vp: oid4vp.oid4vp,
    passkeys: { options: passkeys.passkeys, login: passkeys.passkeyLogin },
  });
  const account = wireAccount(shared, oidc, passkeys.passkeys);
  const users = wireUserStatus(shared);

  const service = new HttpService({ name: APP_NAME, config, logger });
  service.app.set('trust proxy', config.TRUST_PROXY);
  // In this order: the OpenID Connect provider (its own error pages and OAuth bodies) and what
  // wallets call (OAuth error bodies) before the rest of /v2/auth.
  const edges: FeatureEdge[] = [
    oidc,
    oid4vp,
    presentations,
    password,
    vp,
    requests,
    siwe,
    passkeys,
    account,
    users,
  ];
  for (const edge of edges) {
    edge.attach?.(service);
    for (const { path, router } of edge.routes) service.app.use(path, router);
    for (const { path, router } of edge.internalRoutes ?? []) service.internal.use(path, router);
  }
  service
    .addReadinessCheck(kvReadinessCheck(shared.kv))
    .addReadinessCheck(sqlReadinessCheck(shared.database));
  const domain: AuthDomain = {
    kv: shared.kv,
    database: shared.database,
    users: shared.users,
    clients: shared.clients,
    hasher: shared.hasher,
    userAdmin: shared.userAdmin,
    clientAdmin: shared.clientAdmin,
    loginRequests: shared.loginRequests,
    loginResults: shared.loginResults,
    loginMethods: shared.loginMethods,
    passwordLogin: password.passwordLogin,
    vpLogin: vp.vpLogin,
    oid4vp: oid4vp.oid4vp,
    clientAuthenticator: shared.clientAuthenticator,
    siwe: siwe.siwe,
    passkeys: passkeys.passkeys,
    oidc: { provider: oidc.provider, login: oidc.login, issuer: oidc.issuer, assets: oidc.assets },
    userStatus: users.userStatus,
    callerToken: users.callerToken,
    ownTokens: shared.ownTokens,
    jwks: shared.jwks,
    account: account.account,
    revocationDelivery: account.revocationDelivery,
  };
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
