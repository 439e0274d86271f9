import { Pool } from 'undici';

/** One replica of an upstream service: its keep-alive pool and its passive health. */
export interface UpstreamTarget {
  /** The replica's base URL as configured (never logged: it is an internal address). */
  readonly url: string;
  /** Path prefix of the base URL (`/base` for `http://h:1/base/`), '' when none. */
  readonly basePath: string;
  readonly pool: Pool;
  /** Position in the list (#1, #2…): how logs and messages name a replica. */
  readonly index: number;
  /** Refused a connection: skipped until this time (ms since epoch) while others remain. */
  downUntil: number;
}

export interface BalancerOptions {
  /** Keep-alive connections per replica, at most. */
  connections: number;
  /** How long a replica that refused a connection is skipped. */
  skipMs: number;
  /** Idle pooled connections are dropped after this (below the services' 65 s keep-alive). */
  keepAliveTimeoutMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** Idle pooled connections are dropped after this (below service-kit's 65 s keepAliveTimeout). */
const FREE_SOCKET_TIMEOUT_MS = 30_000;

function basePathOf(url: URL): string {
  return url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
}

/**
 * Round robin over the replicas of one upstream service, with passive health: a replica that
 * refused a connection (nothing listens there: stopped, restarting, scaled down) is skipped for
 * `skipMs`, as long as another one is not skipped. When every replica is skipped they are all
 * tried again in turn, so a single upstream that comes back is reached at once, and a request is
 * never refused by the gateway on a guess. One undici Pool (bounded keep-alive connections) per
 * replica.
 */
export class UpstreamBalancer {
  readonly targets: readonly UpstreamTarget[];
  private next = 0;
  private readonly now: () => number;

  constructor(
    urls: readonly string[],
    private readonly options: BalancerOptions,
  ) {
    if (urls.length === 0) throw new TypeError('an upstream needs at least one URL');
    this.now = options.now ?? Date.now;
    this.targets = urls.map((raw, index) => {
      const url = new URL(raw);
      return {
        url: raw,
        basePath: basePathOf(url),
        index,
        downUntil: 0,
        pool: new Pool(url.origin, {
          connections: options.connections,
          keepAliveTimeout: options.keepAliveTimeoutMs ?? FREE_SOCKET_TIMEOUT_MS,
          keepAliveMaxTimeout: options.keepAliveTimeoutMs ?? FREE_SOCKET_TIMEOUT_MS,
          // Timeouts are the forwarder's (one deadline from the moment it starts forwarding).
          headersTimeout: 0,
          bodyTimeout: 0,
        }),
      };
    });
  }

  /**
   * The replica for the next request: the next in turn that is not skipped, else the next in
   * turn. `avoid` (the replica that just refused, on a second attempt) is taken only when it is
   * the only one.
   */
  pick(avoid?: UpstreamTarget): UpstreamTarget {
    const targets = this.targets;
    const count = targets.length;
    if (count === 1) return targets[0]!;
    const now = this.now();
    let fallback: UpstreamTarget | undefined;
    for (let i = 0; i < count; i += 1) {
      const target = targets[(this.next + i) % count]!;
      if (target === avoid) continue;
      if (target.downUntil <= now) {
        this.next = (target.index + 1) % count;
        return target;
      }
      fallback ??= target;
    }
    const chosen = fallback ?? avoid ?? targets[0]!;
    this.next = (chosen.index + 1) % count;
    return chosen;
  }

  /** The replica refused a connection: skip it for `skipMs`. */
  markRefused(target: UpstreamTarget): void {
    target.downUntil = this.now() + this.options.skipMs;
  }

  /** The replica answered: it is healthy again. */
  markAnswered(target: UpstreamTarget): void {
    if (target.downUntil !== 0) target.downUntil = 0;
  }

  /** Closes every pooled connection (shutdown). */
  async close(): Promise<void> {
    await Promise.all(this.targets.map((t) => t.pool.destroy()));
  }
}
