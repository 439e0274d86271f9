import { isIP } from 'node:net';
import { z } from 'zod';

/** Express's `trust proxy` setting: off, on, a hop count, or addresses / subnets / names. */
export type TrustProxy = boolean | number | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isTrustedProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address || isIP(address) === 0) return false;
  return bits === undefined || /^\d{1,3}$/.test(bits);
}

/**
 * `TRUST_PROXY`: which peers may report the client address in X-Forwarded-For. `false` (the
 * default everywhere: a caller that reaches a service directly cannot pick its own address),
 * `true`, a hop count, or a comma list of addresses, CIDR subnets or the proxy-addr names
 * `loopback`, `linklocal`, `uniquelocal`. Set it on a service to the gateway's own address or
 * subnet (the dev stack uses `loopback`; Kubernetes: the pod CIDR the gateway runs in).
 */
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

/** The config entry every service uses: `TRUST_PROXY: trustProxySetting`. Default: trust none. */
export const trustProxySetting = z
  .string()
  .transform(parseTrustProxy)
  .default(false as TrustProxy);
