import { z } from 'zod';
import { baseConfigShape, publicUrlSetting, trustProxySetting } from '@itp/service-kit';

/** `*` (any origin) or an explicit list of origins; an empty list allows no cross-origin caller. */
export type CorsOrigins = '*' | string[];

export type { TrustProxy } from '@itp/service-kit';

const singleUrl = z.url({ protocol: /^https?$/ });

/**
 * One upstream URL or a comma list of them (replicas: the gateway balances over them, see
 * upstreams/upstream-balancer.ts). Kept as the string given; `splitUpstreamUrls` reads it.
 */
const upstreamUrl = z.string().superRefine((value, ctx) => {
  const entries = splitUpstreamUrls(value);
  if (entries.length === 0) ctx.addIssue({ code: 'custom', message: 'no upstream URL given' });
  for (const entry of entries) {
    if (!singleUrl.safeParse(entry).success) {
      ctx.addIssue({ code: 'custom', message: `not an http(s) URL: ${entry}` });
    }
  }
});

/** The URLs of an upstream setting (`http://a:1,http://b:2`), blanks dropped. */
export function splitUpstreamUrls(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
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

export const gatewayConfigSchema = z
  .object({
    ...baseConfigShape,
    PORT: baseConfigShape.PORT.default(8080),
    AUTH_SERVICE_URL: upstreamUrl,
    DID_SERVICE_URL: upstreamUrl,
    TOKEN_RPC_URL: upstreamUrl,
    BLOCK_RPC_URL: upstreamUrl,
    /** Time an upstream has to start answering (and the longest silence while it streams). */
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    /** Keep-alive connections per upstream URL (each replica), at most. */
    UPSTREAM_MAX_SOCKETS: z.coerce.number().int().positive().max(10_000).default(128),
    /** Unset: `*` in development, none otherwise. */
    CORS_ORIGINS: z.string().transform(parseCorsOrigins).optional(),
    /** Where clients reach this gateway: the server URL of /openapi.json and /openrpc/*.json. */
    PUBLIC_URL: publicUrlSetting,
    /** Proxies in front of the gateway (a load balancer) that may report the client address. */
    TRUST_PROXY: trustProxySetting,
    /** Strict-Transport-Security max-age; 0 (default) sends no HSTS header. */
    HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(0),
    /** An upstream URL that refused a connection is skipped for this long (when others remain). */
    UPSTREAM_SKIP_MS: z.coerce.number().int().min(0).default(5_000),
  })
  .transform((config) => ({
    ...config,
    CORS_ORIGINS: config.CORS_ORIGINS ?? (config.APP_ENV === 'development' ? '*' : []),
  }));

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
