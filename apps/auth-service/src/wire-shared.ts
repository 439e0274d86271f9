import { createLocalJWKSet } from 'jose';
import { createKeySetJwtVerifier, type JwtVerifier } from '@itp/auth-jwt';
import { resolveInternalToken } from '@itp/crypto';
import type { AuthJwks } from '@itp/schemas';
import type { Logger, ResourceScope } from '@itp/service-kit';
import {
  openAppStores,
  SqlOneTimeMarks,
  type KvStore,
  type OneTimeMarks,
  type SqlDatabase,
} from '@itp/stores';
import { ClientAdmin } from './clients/client-admin.js';
import { ClientAuthenticator } from './clients/client-authenticator.js';
import type { ClientRepository } from './clients/client-repository.js';
import { authPublicUrl, type AuthConfig } from './config.js';
import type { AuthDatabase } from './db/database.js';
import { authMigrations } from './db/migrations.js';
import { SqlClientRepository } from './db/sql-client-repository.js';
import { SqlCredentialRevocations } from './db/sql-credential-revocations.js';
import { SqlLinkedAddresses } from './db/sql-linked-addresses.js';
import { SqlLoginApprovals } from './db/sql-login-approvals.js';
import { SqlLoginHistory } from './db/sql-login-history.js';
import { SqlPasskeys } from './db/sql-passkeys.js';
import { SqlUserRepository } from './db/sql-user-repository.js';
import { ensureDemoData } from './dev/demo-data.js';
import { HttpDidService } from './did-service/http-did-service.js';
import { OwnIssuerAnchors } from './did-service/own-issuer-anchors.js';
import { resolveSigningKeysJson } from './jwt/dev-signing-keys.js';
import { parseSigningKeySet, type SigningKey, type SigningKeySet } from './jwt/signing-keys.js';
import { TokenIssuer } from './jwt/token-issuer.js';
import { LoginMethods } from './login/login-methods.js';
import { LoginResults } from './login/login-results.js';
import { LoginRequestStore } from './login-requests/login-request-store.js';
import { LoginRequests } from './login-requests/login-requests.js';
import { Argon2PasswordHasher } from './passwords/argon2-password-hasher.js';
import type { PasswordHasher } from './passwords/password-hasher.js';
import { FailureCounter } from './rate-limit/failure-counter.js';
import { UserAdmin } from './users/user-admin.js';
import type { UserRepository } from './users/user-repository.js';

/** The service's name (its logs, metrics, migrations). */
export const APP_NAME = 'auth-service';

/**
 * Longest wait for did-service's OpenID4VP calls: auth-user-by-app waits for the request object
 * (and answers without openid4vpUri after this), a wallet's answer for its check.
 */
const OID4VP_DID_SERVICE_TIMEOUT_MS = 5_000;

/** What the features share: the stores, the users and clients, the login core (ADR 0028). */
export interface SharedResources {
  config: AuthConfig;
  logger: Logger;
  /** Where what a feature opens or starts is registered (closed on shutdown). */
  scope: ResourceScope;
  /** The login requests' (and logins') clock; undefined: Date.now. */
  clock: (() => number) | undefined;
  kv: KvStore;
  database: SqlDatabase<AuthDatabase>;
  users: UserRepository;
  clients: ClientRepository;
  hasher: PasswordHasher;
  userAdmin: UserAdmin;
  clientAdmin: ClientAdmin;
  /** Relying parties' HTTP Basic (and the OpenID Connect provider's client secrets). */
  clientAuthenticator: ClientAuthenticator;
  addresses: SqlLinkedAddresses;
  revocations: SqlCredentialRevocations;
  signingKeys: SigningKey[];
  /** Private RSA JWKs (RS256) for the OpenID Connect provider's id_tokens; may be empty. */
  rsaKeys: SigningKeySet['rsaKeys'];
  jwks: AuthJwks;
  /** Verifies tokens of this service with its own keys (no HTTP). */
  ownTokens: JwtVerifier;
  /** The one place a login method's user becomes a login result (ADR 0028). */
  loginResults: LoginResults;
  /** The login methods offered; each feature registers its own. */
  loginMethods: LoginMethods;
  loginRequests: LoginRequests;
  /** auth-service's one adapter to did-service. */
  didService: HttpDidService;
  /** The own SD-JWT issuers' roots, from did-service, kept fresh (docs/api.md §14). */
  ownIssuers: OwnIssuerAnchors;
  /** One-time rules in SQL (docs/api.md §8, §9): OpenID4VP answers, OIDC codes. */
  oneTimeMarks: OneTimeMarks;
  /** Used login proofs (login VPs, SIWE nonces): their table of migration 0002. */
  usedLoginProofs: OneTimeMarks;
  /** Login failures per client address (`login-ip`), shared by password and VP login. */
  loginFailuresPerIp: FailureCounter;
  /** LOGIN_FAILURE_WINDOW_SECONDS in ms. */
  loginWindowMs: number;
}

/** Opens the stores (through the scope), migrates, loads the signing keys, builds the shared parts. */
export async function wireShared(
  config: AuthConfig,
  logger: Logger,
  scope: ResourceScope,
  clock?: () => number,
): Promise<SharedResources> {
  const { kv, sql: database } = await openAppStores<AuthDatabase>(config, scope, logger, {
    app: APP_NAME,
    keyPrefix: 'auth:',
    migrations: authMigrations,
  });
  const { keys: signingKeys, rsaKeys } = await parseSigningKeySet(
    await resolveSigningKeysJson(config),
  );
  if (rsaKeys.length === 0) {
    logger.warn(
      'JWT_SIGNING_KEYS holds no RSA key: the OpenID Connect provider offers ES256 id_tokens only (add one for RS256; apps/auth-service/README.md)',
    );
  }
  const [currentKey] = signingKeys;
  if (!currentKey) throw new Error('no signing key');

  const hasher = new Argon2PasswordHasher();
  await hasher.verifyDummy('warm-up');
  const users = new SqlUserRepository(database);
  const clients = new SqlClientRepository(database);
  const addresses = new SqlLinkedAddresses(database);
  const revocations = new SqlCredentialRevocations(database);
  const history = new SqlLoginHistory(database);
  const userAdmin = new UserAdmin({
    users,
    hasher,
    addresses,
    revocations,
    history,
    passkeys: new SqlPasskeys(database),
  });
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
  const loginWindowMs = config.LOGIN_FAILURE_WINDOW_SECONDS * 1000;
  const didService = new HttpDidService({
    baseUrl: config.DID_SERVICE_INTERNAL_URL,
    internalApiToken: resolveInternalToken(config, 'INTERNAL_TOKEN_AUTH_TO_DID'),
    oid4vpTimeoutMs: OID4VP_DID_SERVICE_TIMEOUT_MS,
  });
  // Never awaited: a did-service that is down does not hold up (or fail) the start.
  const ownIssuers = new OwnIssuerAnchors(didService, logger, clock ? { clock } : {});
  if (didService.configured) {
    ownIssuers.start();
    scope.onClose('own-issuer-anchors', () => ownIssuers.stop());
  }
  return {
    config,
    logger,
    scope,
    clock,
    kv,
    database,
    users,
    clients,
    hasher,
    userAdmin,
    clientAdmin,
    clientAuthenticator: new ClientAuthenticator(
      clients,
      hasher,
      new FailureCounter(kv, {
        name: 'client-ip',
        max: config.LOGIN_MAX_FAILURES_PER_IP,
        windowMs: loginWindowMs,
      }),
      { cacheTtlMs: config.CLIENT_AUTH_CACHE_SECONDS * 1000 },
    ),
    addresses,
    revocations,
    signingKeys,
    rsaKeys,
    jwks,
    ownTokens,
    loginResults: new LoginResults({ users, tokens, history, logger }),
    loginMethods: new LoginMethods(),
    loginRequests: new LoginRequests(new LoginRequestStore(kv), users, {
      resultGraceMs: config.LOGIN_RESULT_GRACE_SECONDS * 1000,
      approvals: new SqlLoginApprovals(database),
      ...(clock ? { clock } : {}),
    }),
    didService,
    ownIssuers,
    // One-time rules that must survive a Redis that restarts empty or goes back in time
    // (docs/api.md §2, §8, §9, §11): SQL. Used login VPs and SIWE nonces keep their table of 0002.
    oneTimeMarks: new SqlOneTimeMarks(database, { table: 'auth_one_time_marks' }),
    usedLoginProofs: new SqlOneTimeMarks(database, { table: 'auth_vp_uses' }),
    loginFailuresPerIp: new FailureCounter(kv, {
      name: 'login-ip',
      max: config.LOGIN_MAX_FAILURES_PER_IP,
      windowMs: loginWindowMs,
    }),
    loginWindowMs,
  };
}
