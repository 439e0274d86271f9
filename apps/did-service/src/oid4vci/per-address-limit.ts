import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { TooManyRequestsError } from '@itp/errors';
import type { KvStore } from '@itp/stores';

export interface PerAddressLimitOptions {
  /** Names the counter in its keys, e.g. `oid4vci-nonce`. */
  name: string;
  /** Requests allowed per address and window; the next one is refused. */
  max: number;
  windowMs: number;
}

/**
 * A fixed-window limit per client address in the KvStore, shared by every replica:
 * `rl:<name>:<sha256(address group)>`, one atomic INCR per request (the first sets the window's
 * TTL), so concurrent requests never get past the limit. Over it: TooManyRequestsError with
 * Retry-After = what is left of the window. An IPv6 address counts by its /64 (one subscriber
 * usually has a whole /64), an IPv4-mapped one as its IPv4 address.
 */
export class PerAddressLimit {
  constructor(
    private readonly kv: KvStore,
    private readonly options: PerAddressLimitOptions,
  ) {}

  async take(address: string): Promise<void> {
    const key = `rl:${this.options.name}:${createHash('sha256').update(addressGroup(address)).digest('hex')}`;
    const count = await this.kv.incr(key, { ttlMs: this.options.windowMs });
    if (count > this.options.max) {
      const ttl = (await this.kv.ttlMs(key)) ?? this.options.windowMs;
      throw new TooManyRequestsError(
        'Too many requests from this address; try again later',
        ttl / 1000,
        {
          details: { limit: this.options.name },
        },
      );
    }
  }
}

/** The unit a client address is counted as: IPv4 as it is, IPv6 by its /64, else as given. */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(address)) return address;
  const bare = address.split('%')[0] ?? ''; // a zone id (fe80::1%eth0) is not part of the network
  if (!isIPv6(bare)) return address;
  const [head = '', tail = ''] = bare.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = bare.includes('::')
    ? [...headGroups, ...Array<string>(Math.max(missing, 0)).fill('0'), ...tailGroups]
    : headGroups;
  const prefix = groups
    .slice(0, 4)
    .map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16).toString(16) : '0'))
    .join(':');
  return `${prefix}::/64`;
}
