import { z } from 'zod';
import { weakSecretIssues, weakSecretListIssues } from '@itp/crypto';
import {
  insecurePublicUrl,
  baseConfigShape,
  internalApiAcceptedTokensSetting,
  internalListenerConfigShape,
  internalTokenSetting,
  publicUrlSetting,
  retiredInternalApiTokenSetting,
  trustProxySetting,
} from '@itp/service-kit';
import { storeConfigShape } from '@itp/stores';
import { weakSigningKeyIssues } from './jwt/signing-key-strength.js';

const positiveInt = z.coerce.number().int().positive();
export const authServiceConfigSchema = z
  .object({
    ...baseConfigShape,
    ...storeConfigShape,
    ...internalListenerConfigShape,
    PORT: baseConfigShape.PORT.default(8081),

    /** Deployment secret: JSON array of private EC P-256 JWKs; first signs, all are published. */
    JWT_SIGNING_KEYS: z.string().min(1).optional(),
    JWT_ISSUER: z.string().min(1).default('itp-auth'),
    JWT_AUDIENCE: z.string().min(1).default('itp'),
    JWT_TTL_SECONDS: positiveInt.max(7 * 24 * 3600).default(3600),
    /** Cache-Control max-age of the JWKS answer. */
    JWKS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(300),

    /**
     * auth-user failures per (user id, client address) within the window before that pair gets
     * 429; also the failures per user id (all addresses) that cost no delay yet.
     */
    LOGIN_MAX_FAILURES_PER_ID: positiveInt.default(5),
    /** Longest hold per user id (all addresses) after repeated failures; the owner's worst wait. */
    LOGIN_ID_MAX_DELAY_SECONDS: positiveInt.max(3600).default(30),
    /** Credential failures (auth-user and client authentication) per client IP before 429. */
    LOGIN_MAX_FAILURES_PER_IP: positiveInt.default(50),
    LOGIN_FAILURE_WINDOW_SECONDS: positiveInt.default(15 * 60),
    /** Minimum time between two auth-user-result-by-app polls of one request; 0 = no limit. */
    LOGIN_POLL_MIN_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
    /** How long an approved web-site login stays collectable after its waitTime ran out. */
    LOGIN_RESULT_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
    /** How long a verified relying-party secret is remembered in process (argon2 costs ~50 ms). */
    CLIENT_AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),

    /**
     * did-service's internal listener (its INTERNAL_PORT), which checks the VPs of
     * auth-user-with-vp (required in production).
     */
    DID_SERVICE_INTERNAL_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .optional(),
    /**
     * The internal API's tokens (ADR 0020; dev: generated once into DATA_DIR/secrets/): sent to
     * did-service (verify a login VP), and accepted from did-service on this service's own
     * internal API (is this user still active?). auth-service never holds token-rpc's.
     */
    INTERNAL_TOKEN_AUTH_TO_DID: internalTokenSetting,
    INTERNAL_TOKEN_DID_TO_AUTH: internalTokenSetting,
    INTERNAL_API_TOKEN: retiredInternalApiTokenSetting,
    /** Rotation window: more tokens /internal/v1 accepts (never sent); docs/operations.md. */
    INTERNAL_API_ACCEPTED_TOKENS: internalApiAcceptedTokensSetting,
    /** auth-user-with-vp: a VP must be issued within this many seconds; its id is kept as long. */
    VP_LOGIN_MAX_AGE_SECONDS: positiveInt.max(3600).default(300),

    /** OpenID Connect provider (docs/api.md §9): a login page must be completed within this. */
    OIDC_INTERACTION_TTL_SECONDS: positiveInt.min(60).max(3600).default(600),
    /** The provider's browser session: within it a second authorization skips the login page. */
    OIDC_SESSION_TTL_SECONDS: positiveInt
      .min(60)
      .max(30 * 24 * 3600)
      .default(8 * 3600),
    /** Lifetime of the provider's access tokens (for userinfo) and id_tokens. */
    OIDC_TOKEN_TTL_SECONDS: positiveInt
      .min(60)
      .max(24 * 3600)
      .default(3600),
    /**
     * Lifetime of a refresh token (scope offline_access): counted from the login, not extended by
     * its rotations; then the user logs in again.
     */
    OIDC_REFRESH_TOKEN_TTL_SECONDS: positiveInt
      .min(300)
      .max(365 * 24 * 3600)
      .default(30 * 24 * 3600),

    /**
     * Sign-In with Ethereum (docs/api.md §11): the chain its messages must name (CHAIN_ID) and
     * the node that answers for smart-account signatures (ERC-1271, ERC-6492). Both or neither:
     * without them the four SIWE endpoints answer 404.
     */
    ETH_RPC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    CHAIN_ID: positiveInt.optional(),
    /** Longest wait for the chain node on a smart-account signature (then 503). */
    ETH_RPC_TIMEOUT_MS: positiveInt.max(120_000).default(10_000),
    /**
     * Sign-In with Ethereum nonces one client address (IPv6: its /64) may ask for per minute
     * (then 429); each is a Redis key for five minutes. 0 = no limit (the benchmark's run).
     */
    SIWE_NONCES_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).default(600),
    /**
     * Passkey authentication options (each keeps a challenge in Redis for 5 minutes) per client
     * address and minute (docs/api.md §13); 0 turns the limit off.
     */
    PASSKEY_OPTIONS_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).default(600),
    /**
     * Refused Sign-In with Ethereum messages (bad signature, nonce, fields, unlinked address) per
     * client address (IPv6: its /64) within LOGIN_FAILURE_WINDOW_SECONDS before SIWE gets 429
     * from that address. Its own counter: SIWE failures never block password or OIDC logins.
     */
    SIWE_MAX_FAILURES_PER_IP: positiveInt.default(50),
    /**
     * New OpenID Connect login pages with QR codes one client address (IPv6: its /64) may open
     * per minute: each opens a login request and an OpenID4VP session. Over it, the page comes
     * without QR codes (the other ways to log in work). 0 = no limit (the benchmark's run).
     */
    OIDC_QR_PAGES_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).default(60),
    /**
     * OpenID Connect authorization requests one client address (IPv6: its /64) may make per
     * minute: each stores an Interaction in Redis for OIDC_INTERACTION_TTL_SECONDS. Over it, 429
     * with Retry-After (a page). 0 = no limit (the benchmark's run).
     */
    OIDC_AUTHORIZATIONS_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).default(60),
    /** The login pages' product name (a header and the title); none: no header. */
    LOGIN_PAGE_PRODUCT_NAME: z.string().trim().min(1).max(100).optional(),
    /**
     * The login pages' logo, served by the operator: an https URL (its origin joins the pages'
     * CSP img-src) or an absolute path on PUBLIC_URL's origin (`/brand/logo.svg`). None: the
     * pages load nothing from outside.
     */
    LOGIN_PAGE_LOGO_URL: z
      .string()
      .trim()
      .max(2048)
      .refine(
        (v) =>
          /^\/(?![/\\])\S*$/.test(v) ||
          (URL.canParse(v) && new URL(v).protocol === 'https:' && !new URL(v).username),
        'must be an https URL or an absolute path on the service origin (/…)',
      )
      .optional(),
    /** The login pages' primary colour (buttons, links): a CSS hex colour, `#rgb` or `#rrggbb`. */
    LOGIN_PAGE_PRIMARY_COLOR: z
      .string()
      .trim()
      .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a CSS hex colour (#rgb or #rrggbb)')
      .optional(),
    /**
     * Sign-In with Ethereum signature checks that need the chain (smart accounts: ERC-1271,
     * ERC-6492 — an eth_call each) one client address (IPv6: its /64) may make per minute; then
     * 429. Key-holding accounts' signatures are checked locally and never count. 0 = no limit.
     */
    SIWE_CONTRACT_CHECKS_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).default(30),
    /**
     * Step-up (RFC 9470, docs/api.md §12): adding a way into an account (link-address) needs a
     * platform JWT whose `auth_time` is at most this old; an older one is 401 with
     * `WWW-Authenticate: Bearer error="insufficient_user_authentication"`.
     */
    STEP_UP_MAX_AGE_SECONDS: positiveInt.max(86_400).default(300),
    /** How often a reset's credential revocations are delivered to did-service (outbox). */
    CREDENTIAL_REVOCATION_INTERVAL_MS: positiveInt.max(600_000).default(5_000),

    /**
     * Presentation requests (contract §14): the verifier's private P-256 JWK (JSON) that signs the
     * request objects, and its certificate chain (PEM, leaf first; the leaf's SAN dNSName is
     * PUBLIC_URL's host: client_id `x509_san_dns:<host>`). Both or neither; neither outside
     * development: the feature is off (404). Development without them: the dev PKI in DATA_DIR.
     */
    VERIFIER_SIGNING_KEY: z.string().min(1).optional(),
    VERIFIER_CERTIFICATE_CHAIN: z.string().min(1).optional(),
    /**
     * A PEM file of the CA certificates whose credentials (SD-JWT VC, mdoc) presentation requests
     * accept; none: only the dev PKI's CA, in development.
     */
    TRUSTED_ISSUER_CERTIFICATES: z.string().min(1).optional(),

    /**
     * Where clients reach the public API (the gateway's URL). The OpenID4VP request and response
     * URIs a wallet is sent to are `<PUBLIC_URL>/v2/auth/oid4vp/…` and the OpenID Connect issuer
     * is `<PUBLIC_URL>/v2/auth/oidc`, so it is required outside development (development without
     * it: this service's own `http://127.0.0.1:<PORT>`).
     */
    PUBLIC_URL: publicUrlSetting,

    /**
     * Which peers may report the client address in X-Forwarded-For: the gateway's hop only
     * (dev stack `loopback`, Kubernetes the gateway's pod CIDR). Default false: nobody.
     */
    TRUST_PROXY: trustProxySetting,
  })
  .superRefine((config, ctx) => {
    const insecure = insecurePublicUrl(config.APP_ENV, config.PUBLIC_URL);
    if (insecure) ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: insecure });
    if ((config.ETH_RPC_URL === undefined) !== (config.CHAIN_ID === undefined)) {
      const missing = config.ETH_RPC_URL === undefined ? 'ETH_RPC_URL' : 'CHAIN_ID';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message:
          'Sign-In with Ethereum needs both ETH_RPC_URL and CHAIN_ID (or neither, to turn it off)',
      });
    }
    if (
      (config.VERIFIER_SIGNING_KEY === undefined) !==
      (config.VERIFIER_CERTIFICATE_CHAIN === undefined)
    ) {
      const missing =
        config.VERIFIER_SIGNING_KEY === undefined
          ? 'VERIFIER_SIGNING_KEY'
          : 'VERIFIER_CERTIFICATE_CHAIN';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message:
          'presentation requests need both VERIFIER_SIGNING_KEY and VERIFIER_CERTIFICATE_CHAIN (or neither, to turn them off outside development)',
      });
    }
    // Anything but development is production (APP_ENV=test too): secrets required and strong.
    if (config.APP_ENV === 'development') return;
    const required = {
      JWT_SIGNING_KEYS: 'a JSON array of private EC P-256 JWKs; see apps/auth-service/README.md',
      DID_SERVICE_INTERNAL_URL: 'auth-user-with-vp asks did-service',
      INTERNAL_TOKEN_AUTH_TO_DID:
        'auth-user-with-vp asks did-service; e.g. openssl rand -base64 32',
      INTERNAL_TOKEN_DID_TO_AUTH:
        'did-service asks whether a user is active; e.g. openssl rand -base64 32',
      PUBLIC_URL:
        'where clients reach the API: wallets are sent to its OpenID4VP URIs, and it is the OpenID Connect issuer',
    } as const;
    for (const [name, why] of Object.entries(required)) {
      if (!config[name as keyof typeof required]) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `required when APP_ENV=${config.APP_ENV} (anything but development is production: ${why})`,
        });
      }
    }
    const weak = [
      ...weakSecretIssues({
        INTERNAL_TOKEN_AUTH_TO_DID: config.INTERNAL_TOKEN_AUTH_TO_DID,
        INTERNAL_TOKEN_DID_TO_AUTH: config.INTERNAL_TOKEN_DID_TO_AUTH,
      }),
      ...weakSecretListIssues('INTERNAL_API_ACCEPTED_TOKENS', config.INTERNAL_API_ACCEPTED_TOKENS),
      ...weakSigningKeyIssues(config.JWT_SIGNING_KEYS),
    ];
    for (const issue of weak) {
      const [name, ...why] = issue.split(': ');
      ctx.addIssue({ code: 'custom', path: [name ?? '(root)'], message: why.join(': ') });
    }
  });

export type AuthConfig = z.infer<typeof authServiceConfigSchema>;

/** The OpenID Connect issuer (docs/api.md §9). */
export function oidcIssuer(config: AuthConfig): string {
  return `${authPublicUrl(config)}/v2/auth/oidc`;
}

/**
 * The public base of the OpenID4VP URIs and the OpenID Connect issuer: PUBLIC_URL; in development without it, this service's
 * own address (it serves those routes itself).
 */
export function authPublicUrl(config: AuthConfig): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  return `http://127.0.0.1:${config.PORT}`;
}

/** Sign-In with Ethereum's chain settings, or undefined when it is off (docs/api.md §11). */
export function siweChain(
  config: AuthConfig,
): { rpcUrl: string; chainId: number; timeoutMs: number } | undefined {
  if (config.ETH_RPC_URL === undefined || config.CHAIN_ID === undefined) return undefined;
  return {
    rpcUrl: config.ETH_RPC_URL,
    chainId: config.CHAIN_ID,
    timeoutMs: config.ETH_RPC_TIMEOUT_MS,
  };
}
