import { z } from 'zod';
import {
  insecurePublicUrl,
  baseConfigShape,
  internalApiAcceptedTokensSetting,
  publicUrlSetting,
  internalListenerConfigShape,
  internalTokenSetting,
  retiredInternalApiTokenSetting,
  trustProxySetting,
} from '@itp/service-kit';
import { storeConfigShape } from '@itp/stores';
import { chainConfigShape } from '@itp/chain';
import { didAlias } from '@itp/schemas';
import { parseKmsKey } from './agent/kms-keyring.js';

const positiveInt = z.coerce.number().int().positive();
/** The smallest status list the W3C Bitstring Status List allows (16 KiB of bits: herd privacy). */
export const STATUS_LIST_MIN_LENGTH = 131_072;
function isKmsKey(value: string): boolean {
  try {
    parseKmsKey(value);
    return true;
  } catch {
    return false;
  }
}
const KMS_KEY_FORMAT =
  'must be 32 bytes as 64 hex digits, or "<id>:<64 hex digits | base64 of 32 bytes>"';

/** DID_KMS_SECRET_KEY (also read by the CLI's `kms` commands). */
export const kmsSecretKeySetting = z.string().refine(isKmsKey, KMS_KEY_FORMAT).optional();
/** DID_KMS_PREVIOUS_SECRET_KEYS: a comma list of keys in the format of DID_KMS_SECRET_KEY. */
export const kmsPreviousSecretKeysSetting = z
  .string()
  .refine(
    (v) =>
      v
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean)
        .every(isKmsKey),
    `each key ${KMS_KEY_FORMAT}`,
  )
  .optional();

/** DID_NETWORK (also read by the CLI's `credentials` commands, to resolve the issuer DIDs). */
export const didNetworkSetting = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z
    .string()
    .regex(
      /^(0x[1-9a-f][0-9a-f]*|[a-z][a-z0-9_-]{0,63})$/,
      'must be a chain id in lower-case hex without leading zeros (0x7a69) or a network name (a–z, 0–9, _ and -)',
    )
    .refine((value) => value !== 'mainnet', 'leave it unset for mainnet (did:ethr:<address>)')
    .optional(),
);

const serviceUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** A comma list of DID aliases (each 1–100 characters, no duplicates). */
const aliasList = z.string().transform((value, ctx) => {
  const aliases = value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const bad = aliases.filter((a) => !didAlias.safeParse(a).success);
  if (aliases.length === 0 || bad.length > 0 || new Set(aliases).size !== aliases.length) {
    ctx.addIssue({
      code: 'custom',
      message: 'expected a comma list of distinct aliases (1–100 characters each)',
    });
    return z.NEVER;
  }
  return aliases;
});

export const didServiceConfigSchema = z
  .object({
    ...baseConfigShape,
    ...storeConfigShape,
    ...chainConfigShape,
    ...internalListenerConfigShape,
    PORT: baseConfigShape.PORT.default(8082),

    /** token-rpc's internal listener (wallet: register-did, sign-jws; its INTERNAL_PORT). */
    TOKEN_RPC_INTERNAL_URL: serviceUrl,
    /** auth-service's public port: its JWKS verifies the bearer JWTs of create-did / -vc / -vp. */
    AUTH_SERVICE_URL: serviceUrl,
    /** auth-service's internal listener (is this user still active?; its INTERNAL_PORT). */
    AUTH_SERVICE_INTERNAL_URL: serviceUrl,
    JWT_ISSUER: z.string().min(1).default('itp-auth'),
    JWT_AUDIENCE: z.string().min(1).default('itp'),
    /**
     * The internal API's tokens (ADR 0020), each required outside development (dev: generated
     * once into DATA_DIR/secrets/): sent to token-rpc, sent to auth-service, and accepted from
     * auth-service on this service's own internal API.
     */
    INTERNAL_TOKEN_DID_TO_TOKEN_RPC: internalTokenSetting,
    INTERNAL_TOKEN_DID_TO_AUTH: internalTokenSetting,
    INTERNAL_TOKEN_AUTH_TO_DID: internalTokenSetting,
    INTERNAL_API_TOKEN: retiredInternalApiTokenSetting,
    /** Rotation window: more tokens /internal/v1 accepts (never sent); docs/operations.md. */
    INTERNAL_API_ACCEPTED_TOKENS: internalApiAcceptedTokensSetting,
    /**
     * Deployment secret: encrypts the service's private keys at rest. `<id>:<64 hex digits>` (the
     * id names the key in stored values and rotations) or 64 hex digits (id `k1`).
     */
    DID_KMS_SECRET_KEY: kmsSecretKeySetting,
    /**
     * Comma list of keys rotated away from (ADR 0016): stored keys sealed under them still open;
     * `node dist/cli.js kms reencrypt` moves them under DID_KMS_SECRET_KEY.
     */
    DID_KMS_PREVIOUS_SECRET_KEYS: kmsPreviousSecretKeysSetting,

    /** Aliases of the issuer / verifier DIDs the service creates on first start and keeps. */
    DID_ISSUER_ALIASES: aliasList.default(['itp-issuer']),
    DID_VERIFIER_ALIASES: aliasList.default(['itp-verifier']),

    /**
     * The network segment of the DIDs this service creates (ADR 0015). Unset (the default): the
     * interface's `did:ethr:<address>`, which standard resolvers read as Ethereum mainnet. Set it
     * on any other chain: the chain id in hex as ethr-did-resolver writes it (`0x7a69` for 31337;
     * checked against the chain at start) or a network name (`sepolia`, `itp-dev`), giving
     * `did:ethr:<network>:<address>`. Both forms are resolved either way.
     */
    DID_NETWORK: didNetworkSetting,

    /** How long a resolved DID document is reused (0 = always ask the chain). */
    DID_RESOLUTION_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
    DID_RESOLUTION_CACHE_MAX: positiveInt.default(10_000),
    /**
     * Worker threads that make the service keys' ES256K signatures (create-vc, create-vp,
     * login challenges); 0 = sign on the event loop (agent/signing-pool.ts, ADR 0018).
     */
    DID_SIGNING_THREADS: z.coerce.number().int().min(0).max(16).default(1),
    /** A VP used for login must be issued within this many seconds. */
    VP_LOGIN_MAX_AGE_SECONDS: positiveInt.max(3600).default(300),
    /** Lifetime of issued VCs (JWT exp and expirationDate); default 90 days. */
    VC_LIFETIME_SECONDS: positiveInt.default(90 * 24 * 3600),
    /**
     * How long auth-service's answer "is this user still active?" is reused: a user disabled by
     * an operator can act for at most this long (create-did with a bearer, create-vc, create-vp).
     */
    USER_STATUS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
    /**
     * Step-up (RFC 9470, docs/api.md §12): create-vc, create-did with a bearer and
     * credential-offer add a way into the account and need a JWT whose `auth_time` (else `iat`)
     * is at most this old; an older one is a 401 `insufficient_user_authentication`.
     */
    STEP_UP_MAX_AGE_SECONDS: positiveInt.max(86_400).default(300),
    /**
     * OpenID4VCI nonce endpoint (`POST /v2/did/oid4vci/nonce`, anonymous): c_nonces per client
     * address and minute; over it 429 with Retry-After. 0 = no limit.
     */
    OID4VCI_NONCES_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).default(60),
    /** Which peers may report the client address in X-Forwarded-For (the gateway's hop). */
    TRUST_PROXY: trustProxySetting,
    /** Timeout of one call to token-rpc. */
    WALLET_TIMEOUT_MS: positiveInt.default(10_000),
    /**
     * Where clients reach the public API (the gateway's URL). Every issued VC names its status
     * list as `<PUBLIC_URL>/v2/did/status-lists/<listId>`, so it is required outside development
     * (development without it: this service's own `http://127.0.0.1:<PORT>`). Changing it later
     * leaves the VCs issued before pointing at the old address.
     */
    PUBLIC_URL: publicUrlSetting,
    /** Entries of each new status list (W3C Bitstring Status List: at least 131,072). */
    STATUS_LIST_LENGTH: z.coerce
      .number()
      .int()
      .min(STATUS_LIST_MIN_LENGTH, `must be at least ${STATUS_LIST_MIN_LENGTH}`)
      .max(2 ** 24)
      .default(STATUS_LIST_MIN_LENGTH),
    /** Cache-Control max-age of GET /v2/did/status-lists/<listId>: how long verifiers may cache it. */
    STATUS_LIST_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  })
  .superRefine((config, ctx) => {
    const insecure = insecurePublicUrl(config.APP_ENV, config.PUBLIC_URL);
    if (insecure) ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: insecure });
    const both = config.DID_ISSUER_ALIASES.filter((a) => config.DID_VERIFIER_ALIASES.includes(a));
    if (both.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['DID_VERIFIER_ALIASES'],
        message: `aliases must differ from DID_ISSUER_ALIASES (${both.join(', ')})`,
      });
    }
  });

export type DidConfig = z.infer<typeof didServiceConfigSchema>;
