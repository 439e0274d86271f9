import { z } from 'zod';
import { baseConfigShape, trustProxySetting } from '@itp/service-kit';

/** `*` (any origin) or an explicit list of origins; an empty list allows no cross-origin caller. */
export type CorsOrigins = '*' | string[];

export type { TrustProxy } from '@itp/service-kit';

const upstreamUrl = z.url({ protocol: /^https?$/ });

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
    /** Proxies in front of the gateway (a load balancer) that may report the client address. */
    TRUST_PROXY: trustProxySetting,
    /** Strict-Transport-Security max-age; 0 (default) sends no HSTS header. */
    HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(0),
  })
  .transform((config) => ({
    ...config,
    CORS_ORIGINS: config.CORS_ORIGINS ?? (config.APP_ENV === 'development' ? '*' : []),
  }));

export type GatewayConfig = z.infer<typeof configSchema>;
