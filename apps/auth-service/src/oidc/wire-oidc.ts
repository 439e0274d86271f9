import express from 'express';
import { rememberedQrDataUrl } from '@itp/service-kit';
import type Provider from 'oidc-provider';
import { authPublicUrl, oidcIssuer } from '../config.js';
import type { FeatureEdge } from '../feature.js';
import {
  authorizationServerMetadata,
  OIDC_AUTHORIZATION_SERVER_METADATA_PATH,
  oidcRouter,
} from '../http/oidc-router.js';
import { failureLimit } from '../login/failure-limit.js';
import type { LoginMethod } from '../login/login-method.js';
import type { PasswordCredentials } from '../login/password-login.js';
import type { RequestCollection } from '../login-requests/approved-request-login.js';
import type { Oid4vpLogin } from '../oid4vp/oid4vp-login.js';
import type { SiweLogin } from '../siwe/siwe-login.js';
import type { SharedResources } from '../wire-shared.js';
import { kvOidcAdapter } from './kv-oidc-adapter.js';
import { loginQrPngDataUrl } from './login-qr-png.js';
import { observeOidcProvider } from './oidc-metrics.js';
import { OidcSqlStatements } from './oidc-sql-side.js';
import { OidcLogin, type OidcLoginDeps } from './oidc-login.js';
import { clientLookup, clientReadOncePerRequest, createOidcProvider } from './oidc-provider.js';

/** Longest life of the OpenID Connect login page's QR codes (a reload after it makes new ones). */
const OIDC_QR_WAIT_SECONDS = 300;

/** The OpenID Connect provider's parts the rest of the service uses. */
export interface OidcParts {
  provider: Provider;
  login: OidcLogin;
  issuer: string;
  assets: string;
  adapter: ReturnType<typeof kvOidcAdapter>;
  /** The adapter's SQL side (marks, durable copies; the account's durable grants). */
  records: OidcSqlStatements;
}

/** The login methods the login page offers, and what its QR codes need. */
export interface OidcLoginWays {
  password: LoginMethod<PasswordCredentials>;
  approvedRequests: LoginMethod<RequestCollection>;
  siwe: SiweLogin | undefined;
  oid4vp: Oid4vpLogin;
  /** "Sign in with a passkey" and the passkey autofill (docs/api.md §13). */
  passkeys?: OidcLoginDeps['passkeys'];
}

/**
 * The OpenID Connect provider and its login page (docs/api.md §9): the provider (its own error
 * pages and OAuth bodies, mounted before the rest of /v2/auth), its RFC 8414 metadata location,
 * its events logged, its metrics.
 */
export function wireOidc(shared: SharedResources, ways: OidcLoginWays): FeatureEdge & OidcParts {
  const { config, kv, clients, users, clientAuthenticator, logger, clock } = shared;
  const { signingKeys, rsaKeys } = shared;
  const issuer = oidcIssuer(config);
  const issuerPath = new URL(issuer).pathname;
  const assets = `${issuerPath}/assets/`;
  // The marks and durable copies in fewer statements per grant (ADR 0037).
  const records = new OidcSqlStatements(shared.database);
  const findClient = clientReadOncePerRequest((id) => clients.findById(id));
  const oidcAdapter = kvOidcAdapter(kv, clientLookup(findClient), {
    marks: records.marks,
    records: records.records,
    useOnce: (key, expiresAt, now, copy) => records.useOnce(key, expiresAt, now, copy),
    maxGrantLifetimeMs:
      Math.max(config.OIDC_SESSION_TTL_SECONDS, config.OIDC_REFRESH_TOKEN_TTL_SECONDS) * 1000,
    // oidc-provider's own times (exp) are the real clock's: so are the marks'.
  });
  const provider = createOidcProvider({
    issuer,
    signingKeys: signingKeys.map((key) => key.privateJwk),
    rsaSigningKeys: rsaKeys,
    adapter: oidcAdapter,
    findClient,
    findUser: (id) => users.findById(id),
    verifyClientSecret: (id, secret, address) =>
      clientAuthenticator.verifySecret(id, secret, address, findClient),
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
  logProviderEvents(provider, logger);
  const login = new OidcLogin(
    {
      provider,
      methods: shared.loginMethods,
      password: ways.password,
      approvedRequests: ways.approvedRequests,
      loginRequests: shared.loginRequests,
      oid4vp: ways.oid4vp,
      siwe: ways.siwe,
      ...(ways.passkeys ? { passkeys: ways.passkeys } : {}),
      clients,
      kv,
      loginResults: shared.loginResults,
      // The same PNG as service-kit's qrDataUrl, written here at a tenth of its cost (ADR 0032).
      qrDataUrl: rememberedQrDataUrl(async (text) => loginQrPngDataUrl(text)),
      qrPagesPerIp: failureLimit(kv, {
        name: 'oidc-qr-ip',
        max: config.OIDC_QR_PAGES_PER_IP_PER_MINUTE,
        windowMs: 60_000,
      }),
    },
    { qrWaitSeconds: OIDC_QR_WAIT_SECONDS, ...(clock ? { clock } : {}) },
  );
  const metadata = express.Router();
  metadata.get(OIDC_AUTHORIZATION_SERVER_METADATA_PATH, authorizationServerMetadata);
  return {
    provider,
    login,
    issuer,
    assets,
    adapter: oidcAdapter,
    records,
    routes: [
      // Its RFC 8414 metadata location goes on as its discovery request.
      { path: '/', router: metadata },
      {
        path: '/v2/auth/oidc',
        router: oidcRouter({
          provider,
          login,
          publicUrl: authPublicUrl(config),
          assets,
          issuerPath,
          bodyLimitBytes: config.BODY_LIMIT_BYTES,
          logger,
          branding: {
            ...(config.LOGIN_PAGE_PRODUCT_NAME
              ? { productName: config.LOGIN_PAGE_PRODUCT_NAME }
              : {}),
            ...(config.LOGIN_PAGE_LOGO_URL ? { logoUrl: config.LOGIN_PAGE_LOGO_URL } : {}),
            ...(config.LOGIN_PAGE_PRIMARY_COLOR
              ? { primaryColor: config.LOGIN_PAGE_PRIMARY_COLOR }
              : {}),
          },
          authorizationsPerIp: failureLimit(kv, {
            name: 'oidc-auth-ip',
            max: config.OIDC_AUTHORIZATIONS_PER_IP_PER_MINUTE,
            windowMs: 60_000,
          }),
        }),
      },
    ],
    attach: (service) => observeOidcProvider(provider, service.metrics),
  };
}

/** The provider's failures and back-channel logout posts (never the logout token itself). */
function logProviderEvents(provider: Provider, logger: SharedResources['logger']): void {
  provider.on('server_error', (_ctx: unknown, err: unknown) => {
    logger.error({ err }, 'the OpenID Connect provider failed on a request');
  });
  provider.on('backchannel.success', (_ctx: unknown, client: { clientId: string }) => {
    logger.info({ clientId: client.clientId }, 'back-channel logout delivered');
  });
  provider.on('backchannel.error', (_ctx: unknown, err: unknown, client: { clientId: string }) => {
    logger.warn(
      { clientId: client.clientId, reason: err instanceof Error ? err.message : String(err) },
      'back-channel logout not delivered',
    );
  });
}
