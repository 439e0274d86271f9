import { isIP } from 'node:net';
import { z } from 'zod';
import { baseConfigShape } from '@itp/service-kit';
import { storeConfigShape } from '@itp/stores';

const positiveInt = z.coerce.number().int().positive();
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Express's `trust proxy`: false, true, a hop count, or a comma list of addresses/subnets/names. */
function parseTrustProxy(value: string, ctx: z.RefinementCtx): boolean | number | string[] {
  const v = value.trim().toLowerCase();
  if (v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => {
    if (PROXY_NAMES.has(entry)) return false;
    const [address, bits, extra] = entry.split('/');
    return (
      extra !== undefined || !address || isIP(address) === 0 || !/^(\d{1,3})?$/.test(bits ?? '')
    );
  });
  if (entries.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: 'expected true, false, a hop count or a comma list of addresses/subnets',
    });
    return z.NEVER;
  }
  return entries;
}

export const configSchema = z
  .object({
    ...baseConfigShape,
    ...storeConfigShape,
    PORT: baseConfigShape.PORT.default(8081),

    /** Deployment secret: JSON array of private EC P-256 JWKs; first signs, all are published. */
    JWT_SIGNING_KEYS: z.string().min(1).optional(),
    JWT_ISSUER: z.string().min(1).default('itp-auth'),
    JWT_AUDIENCE: z.string().min(1).default('itp'),
    JWT_TTL_SECONDS: positiveInt.max(7 * 24 * 3600).default(3600),
    /** Cache-Control max-age of the JWKS answer. */
    JWKS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(300),

    /** auth-user failures per user id within the window before 429. */
    LOGIN_MAX_FAILURES_PER_ID: positiveInt.default(5),
    /** Credential failures (auth-user and client authentication) per client IP before 429. */
    LOGIN_MAX_FAILURES_PER_IP: positiveInt.default(50),
    LOGIN_FAILURE_WINDOW_SECONDS: positiveInt.default(15 * 60),
    /** Minimum time between two auth-user-result-by-app polls of one request; 0 = no limit. */
    LOGIN_POLL_MIN_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
    /** How long an approved web-site login stays collectable after its waitTime ran out. */
    LOGIN_RESULT_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
    /** How long a verified relying-party secret is remembered in process (argon2 costs ~50 ms). */
    CLIENT_AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),

    /** did-service, which checks the VPs of auth-user-with-vp (required in production). */
    DID_SERVICE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    /** Deployment secret for /internal/v1 calls (dev: DATA_DIR/secrets/internal-api-token). */
    INTERNAL_API_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
    /** auth-user-with-vp: a VP must be issued within this many seconds; its id is kept as long. */
    VP_LOGIN_MAX_AGE_SECONDS: positiveInt.max(3600).default(300),

    /** Which peers may report the client address in X-Forwarded-For (the gateway). */
    TRUST_PROXY: z
      .string()
      .transform(parseTrustProxy)
      .default(['loopback', 'linklocal', 'uniquelocal']),
  })
  .superRefine((config, ctx) => {
    if (config.APP_ENV === 'production' && !config.JWT_SIGNING_KEYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SIGNING_KEYS'],
        message:
          'required when APP_ENV=production (a JSON array of private EC P-256 JWKs; see apps/auth-service/README.md)',
      });
    }
    if (config.APP_ENV === 'production') {
      for (const name of ['DID_SERVICE_URL', 'INTERNAL_API_TOKEN'] as const) {
        if (!config[name]) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'required when APP_ENV=production (auth-user-with-vp asks did-service)',
          });
        }
      }
    }
  });

export type AuthConfig = z.infer<typeof configSchema>;
