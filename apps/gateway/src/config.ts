import { isIP } from 'node:net';
import { z } from 'zod';
import { baseConfigShape } from '@itp/service-kit';

/** `*` (any origin) or an explicit list of origins; an empty list allows no cross-origin caller. */
export type CorsOrigins = '*' | string[];

/** Express's `trust proxy` setting: off, on, a hop count, or addresses / subnets / names. */
export type TrustProxy = boolean | number | string[];

const upstreamUrl = z.url({ protocol: /^https?$/ });

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isTrustedProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address || isIP(address) === 0) return false;
  return bits === undefined || /^\d{1,3}$/.test(bits);
}

/** `false` / `true` / a hop count / a comma list of addresses, CIDR subnets or proxy-addr names. */
export function parseTrustProxy(value: string, ctx: z.RefinementCtx): TrustProxy {
  const v = value.trim().toLowerCase();
  if (v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !isTrustedProxyEntry(e));
  if (entries.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `expected true, false, a hop count or addresses/subnets (bad: ${bad.join(', ') || value})`,
    });
    return z.NEVER;
  }
  return entries;
}

/** `*`, or a comma list of origins (`scheme://host[:port]`); an empty string means none. */
export function parseCorsOrigins(value: string, ctx: z.RefinementCtx): CorsOrigins {
  const v = value.trim();
  if (v === '*') return '*';
  const origins: string[] = [];
  for (const entry of v.split(',').map((e) => e.trim())) {
    if (!entry) continue;
    let origin: string | undefined;
    try {
      origin = new URL(entry).origin;
    } catch {
      origin = undefined;
    }
    // The origin must be given exactly as browsers send it: no path, no trailing slash.
    if (origin === undefined || origin === 'null' || origin !== entry.toLowerCase()) {
      ctx.addIssue({ code: 'custom', message: `not an origin (scheme://host[:port]): ${entry}` });
      return z.NEVER;
    }
    origins.push(origin);
  }
  return origins;
}

export const configSchema = z
  .object({
    ...baseConfigShape,
    PORT: baseConfigShape.PORT.default(8080),
    AUTH_SERVICE_URL: upstreamUrl,
    DID_SERVICE_URL: upstreamUrl,
    TOKEN_RPC_URL: upstreamUrl,
    BLOCK_RPC_URL: upstreamUrl,
    /** Time an upstream has to start answering (and the longest silence while it streams). */
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    /** Keep-alive connections per upstream, at most. */
    UPSTREAM_MAX_SOCKETS: z.coerce.number().int().positive().max(10_000).default(128),
    /** Unset: `*` in development, none otherwise. */
    CORS_ORIGINS: z.string().transform(parseCorsOrigins).optional(),
    TRUST_PROXY: z.string().transform(parseTrustProxy).default(false),
    /** Strict-Transport-Security max-age; 0 (default) sends no HSTS header. */
    HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(0),
  })
  .transform((config) => ({
    ...config,
    CORS_ORIGINS: config.CORS_ORIGINS ?? (config.APP_ENV === 'development' ? '*' : []),
  }));

export type GatewayConfig = z.infer<typeof configSchema>;
