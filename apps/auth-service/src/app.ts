import { createLocalJWKSet } from 'jose';
import { createKeySetJwtVerifier, type JwtVerifier } from '@itp/auth-jwt';
import type { AuthJwks } from '@itp/schemas';
import { Service, type Logger } from '@itp/service-kit';
import {
  createKvStore,
  kvReadinessCheck,
  migrateToLatest,
  openSqlDatabase,
  resolveStoreUrls,
  sqlReadinessCheck,
  type KvStore,
  type SqlDatabase,
} from '@itp/stores';
import { ClientAdmin } from './clients/client-admin.js';
import { ClientAuthenticator } from './clients/client-authenticator.js';
import type { ClientRepository } from './clients/client-repository.js';
import { SqlClientRepository } from './clients/sql-client-repository.js';
import type { AuthConfig } from './config.js';
import type { AuthDatabase } from './db/database.js';
import { authMigrations } from './db/migrations.js';
import { ensureDemoData } from './dev/demo-data.js';
import { authRouter } from './http/auth-router.js';
import { resolveSigningKeysJson } from './jwt/dev-signing-keys.js';
import { parseSigningKeys } from './jwt/signing-keys.js';
import { TokenIssuer } from './jwt/token-issuer.js';
import { LoginResults } from './login/login-results.js';
import { PasswordLogin } from './login/password-login.js';
import { LoginRequestStore } from './login-requests/login-request-store.js';
import { LoginRequests } from './login-requests/login-requests.js';
import { Argon2PasswordHasher } from './passwords/argon2-password-hasher.js';
import type { PasswordHasher } from './passwords/password-hasher.js';
import { FailureCounter } from './rate-limit/failure-counter.js';
import { PollThrottle } from './rate-limit/poll-throttle.js';
import { SqlUserRepository } from './users/sql-user-repository.js';
import { UserAdmin } from './users/user-admin.js';
import type { UserRepository } from './users/user-repository.js';
import { DidServiceLoginVpVerifier } from './vp-login/did-service-login-vp-verifier.js';
import { resolveInternalApiToken } from './vp-login/internal-api-token.js';
import { VpLogin } from './vp-login/vp-login.js';

/**
 * The service's domain operations, for the HTTP layer and for features added later. The
 * auth-user-with-vp handler (DID issue) needs only: verify the VP (did-service) → replay check
 * (kv) → `loginRequests.approveLoginRequest(requestId, userId)` when a requestId is given →
 * `loginResults.issueLoginResult(userId)`.
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
  /** Verifies tokens of this service with its own keys (no HTTP). */
  ownTokens: JwtVerifier;
  jwks: AuthJwks;
}

export interface AuthService {
  service: Service;
  domain: AuthDomain;
}

/** Opens the stores, migrates, loads the signing keys and wires the domain. */
async function buildDomain(config: AuthConfig, logger: Logger): Promise<AuthDomain> {
  const urls = resolveStoreUrls(config, 'auth-service');
  const kv = createKvStore({
    redisUrl: urls.redisUrl,
    keyPrefix: config.REDIS_KEY_PREFIX ?? 'auth:',
    logger,
  });
  const database = openSqlDatabase<AuthDatabase>(urls.databaseUrl, { logger });
  try {
    await migrateToLatest(database, authMigrations);
    const signingKeys = await parseSigningKeys(await resolveSigningKeysJson(config));
    const [currentKey] = signingKeys;
    if (!currentKey) throw new Error('no signing key');

    const hasher = new Argon2PasswordHasher();
    await hasher.verifyDummy('warm-up');
    const users = new SqlUserRepository(database);
    const clients = new SqlClientRepository(database);
    const userAdmin = new UserAdmin(users, hasher);
    const clientAdmin = new ClientAdmin(clients, hasher);
    if (config.APP_ENV === 'development') {
      const seeded = await ensureDemoData(userAdmin, clientAdmin);
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
    const failuresPerId = new FailureCounter(kv, {
      name: 'login-id',
      max: config.LOGIN_MAX_FAILURES_PER_ID,
      windowMs,
    });
    const loginResults = new LoginResults(users, tokens);
    const passwordLogin = new PasswordLogin({
      users,
      hasher,
      results: loginResults,
      ownTokens,
      failuresPerId,
      failuresPerIp,
      logger,
    });
    const loginRequests = new LoginRequests(new LoginRequestStore(kv), users, {
      resultGraceMs: config.LOGIN_RESULT_GRACE_SECONDS * 1000,
    });
    const vpLogin = new VpLogin(
      {
        verifier: new DidServiceLoginVpVerifier({
          baseUrl: config.DID_SERVICE_URL,
          internalApiToken: resolveInternalApiToken(config),
        }),
        kv,
        loginRequests,
        loginResults,
        failuresPerIp,
      },
      { maxAgeSeconds: config.VP_LOGIN_MAX_AGE_SECONDS },
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
      ownTokens,
      jwks,
    };
  } catch (err) {
    await Promise.allSettled([kv.close(), database.close()]);
    throw err;
  }
}

/** Composition root with access to the domain (tests, and features that add routes). */
export async function buildAuthService(config: AuthConfig, logger: Logger): Promise<AuthService> {
  const domain = await buildDomain(config, logger);
  const { kv, database } = domain;
  const service = new Service({ name: 'auth-service', config, logger });
  service.app.set('trust proxy', config.TRUST_PROXY);
  const clientAuthenticator = new ClientAuthenticator(
    domain.clients,
    domain.hasher,
    new FailureCounter(kv, {
      name: 'client-ip',
      max: config.LOGIN_MAX_FAILURES_PER_IP,
      windowMs: config.LOGIN_FAILURE_WINDOW_SECONDS * 1000,
    }),
    { cacheTtlMs: config.CLIENT_AUTH_CACHE_SECONDS * 1000 },
  );
  service.app.use(
    '/v2/auth',
    authRouter({
      passwordLogin: domain.passwordLogin,
      vpLogin: domain.vpLogin,
      loginRequests: domain.loginRequests,
      loginResults: domain.loginResults,
      clientAuthenticator,
      pollThrottle: new PollThrottle(kv, config.LOGIN_POLL_MIN_INTERVAL_MS),
      jwks: domain.jwks,
      jwksMaxAgeSeconds: config.JWKS_MAX_AGE_SECONDS,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
    }),
  );
  service.addReadinessCheck(kvReadinessCheck(kv)).addReadinessCheck(sqlReadinessCheck(database));
  service.onShutdown(() => kv.close()).onShutdown(() => database.close());
  return { service, domain };
}

/** The composition root runMain calls (apps/auth-service/src/main.ts). */
export async function buildApp(config: AuthConfig, logger: Logger): Promise<Service> {
  return (await buildAuthService(config, logger)).service;
}
