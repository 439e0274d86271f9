import { z } from 'zod';
import { baseConfigShape } from '@itp/service-kit';
import { storeConfigShape } from '@itp/stores';
import { chainConfigShape } from '@itp/chain';
import { didAlias } from '@itp/schemas';

const positiveInt = z.coerce.number().int().positive();
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

export const configSchema = z
  .object({
    ...baseConfigShape,
    ...storeConfigShape,
    ...chainConfigShape,
    PORT: baseConfigShape.PORT.default(8082),

    /** token-rpc (wallet: register-did, sign-jws), called with INTERNAL_API_TOKEN. */
    TOKEN_RPC_URL: serviceUrl,
    /** auth-service: its JWKS verifies the bearer JWTs of create-did / create-vc / create-vp. */
    AUTH_SERVICE_URL: serviceUrl,
    JWT_ISSUER: z.string().min(1).default('itp-auth'),
    JWT_AUDIENCE: z.string().min(1).default('itp'),
    /** Deployment secret shared by the services for /internal/v1 (dev: DATA_DIR/secrets/internal-api-token). */
    INTERNAL_API_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Deployment secret: 32 bytes as 64 hex digits; encrypts the service's private keys at rest. */
    DID_KMS_SECRET_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 32 bytes as 64 hex digits')
      .optional(),

    /** Aliases of the issuer / verifier DIDs the service creates on first start and keeps. */
    DID_ISSUER_ALIASES: aliasList.default(['itp-issuer']),
    DID_VERIFIER_ALIASES: aliasList.default(['itp-verifier']),

    /** How long a resolved DID document is reused (0 = always ask the chain). */
    DID_RESOLUTION_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
    DID_RESOLUTION_CACHE_MAX: positiveInt.default(10_000),
    /** A VP used for login must be issued within this many seconds. */
    VP_LOGIN_MAX_AGE_SECONDS: positiveInt.max(3600).default(300),
    /** Lifetime of issued VCs (JWT exp and expirationDate); default 90 days. */
    VC_LIFETIME_SECONDS: positiveInt.default(90 * 24 * 3600),
    /**
     * How long auth-service's answer "is this user still active?" is reused: a user disabled by
     * an operator can act for at most this long (create-did with a bearer, create-vc, create-vp).
     */
    USER_STATUS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
    /** Timeout of one call to token-rpc. */
    WALLET_TIMEOUT_MS: positiveInt.default(10_000),
  })
  .superRefine((config, ctx) => {
    const both = config.DID_ISSUER_ALIASES.filter((a) => config.DID_VERIFIER_ALIASES.includes(a));
    if (both.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['DID_VERIFIER_ALIASES'],
        message: `aliases must differ from DID_ISSUER_ALIASES (${both.join(', ')})`,
      });
    }
  });

export type DidConfig = z.infer<typeof configSchema>;
