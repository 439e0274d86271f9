import { Counter, type Registry } from 'prom-client';
import type Provider from 'oidc-provider';

/** Labels stay bounded: anything a client could vary becomes `other`. */
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);
const OAUTH_ERRORS = new Set([
  'access_denied',
  'consent_required',
  'interaction_required',
  'invalid_client',
  'invalid_grant',
  'invalid_redirect_uri',
  'invalid_request',
  'invalid_scope',
  'login_required',
  'server_error',
  'temporarily_unavailable',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_response_type',
]);
const METHODS = new Set(['pwd', 'app', 'vp', 'siwe', 'hwk', 'swk']);

interface EventContext {
  oidc?: {
    params?: { grant_type?: unknown };
    result?: { login?: { amr?: unknown } };
  };
}

const oneOf = (allowed: Set<string>, value: unknown): string =>
  typeof value === 'string' && allowed.has(value) ? value : 'other';

const errorCode = (err: unknown): string =>
  oneOf(OAUTH_ERRORS, (err as { error?: unknown })?.error);

/**
 * The OpenID Connect provider's Prometheus counters, from its own events (docs/operations.md,
 * "What to watch"): token requests by grant type and outcome (a rise of invalid_grant on
 * refresh_token is replayed or stolen refresh tokens), authorizations by login method,
 * logouts, revoked grants and back-channel logout posts.
 */
export function observeOidcProvider(provider: Provider, registry: Registry): void {
  const tokens = new Counter({
    name: 'oidc_token_requests_total',
    help: 'Token endpoint requests by grant type and outcome (success, or the OAuth error code)',
    labelNames: ['grant_type', 'outcome'] as const,
    registers: [registry],
  });
  const authorizations = new Counter({
    name: 'oidc_authorizations_total',
    help: 'Authorizations answered to a site: success by login method (pwd, app, vp, siwe; session: no login page), or the OAuth error code',
    labelNames: ['outcome', 'method'] as const,
    registers: [registry],
  });
  const logouts = new Counter({
    name: 'oidc_logouts_total',
    help: 'Logouts at the provider (end-session confirmed)',
    registers: [registry],
  });
  const revoked = new Counter({
    name: 'oidc_grants_revoked_total',
    help: 'Grants revoked: logout, RFC 7009 revocation, a reused refresh token or code',
    registers: [registry],
  });
  const backchannel = new Counter({
    name: 'oidc_backchannel_logouts_total',
    help: 'Back-channel logout posts to sites by outcome (delivered, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  const grantType = (ctx: EventContext) => oneOf(GRANT_TYPES, ctx.oidc?.params?.grant_type);
  provider.on('grant.success', (ctx: EventContext) =>
    tokens.inc({ grant_type: grantType(ctx), outcome: 'success' }),
  );
  provider.on('grant.error', (ctx: EventContext, err: unknown) =>
    tokens.inc({ grant_type: grantType(ctx), outcome: errorCode(err) }),
  );
  provider.on('authorization.success', (ctx: EventContext) => {
    const amr = ctx.oidc?.result?.login?.amr;
    const method = Array.isArray(amr) ? oneOf(METHODS, amr[0]) : 'session';
    authorizations.inc({ outcome: 'success', method });
  });
  provider.on('authorization.error', (_ctx: unknown, err: unknown) =>
    authorizations.inc({ outcome: errorCode(err), method: 'none' }),
  );
  provider.on('end_session.success', () => logouts.inc());
  provider.on('grant.revoked', () => revoked.inc());
  provider.on('backchannel.success', () => backchannel.inc({ outcome: 'delivered' }));
  provider.on('backchannel.error', () => backchannel.inc({ outcome: 'failed' }));
}
