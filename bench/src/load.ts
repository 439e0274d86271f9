import autocannon from 'autocannon';

/** One measured figure: throughput, latency percentiles, failures. */
export interface Figure {
  label: string;
  /** Operations per second (requests, or whole flows for the transfer scenario). */
  rate: number;
  p50: number;
  p99: number;
  /** Mean time per operation and connection, ms (finer than the whole-millisecond percentiles). */
  meanMs: number;
  /** Operations that failed (socket errors, non-2xx, failed checks). */
  errors: number;
  /** Operations completed. */
  total: number;
}

export interface HttpLoad {
  label: string;
  url: string;
  seconds: number;
  connections: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Seconds of the same load first, not counted (connections opened, code warm). */
  warmupSeconds?: number;
}

/** An HTTP load with autocannon (programmatic API), bounded in time. */
export async function httpLoad(load: HttpLoad): Promise<Figure> {
  const options = {
    url: load.url,
    connections: load.connections,
    method: load.method ?? (load.body ? 'POST' : 'GET'),
    headers: {
      ...(load.body ? { 'content-type': 'application/json' } : {}),
      ...load.headers,
    },
    body: load.body,
  };
  if (load.warmupSeconds) await autocannon({ ...options, duration: load.warmupSeconds });
  const result = await autocannon({ ...options, duration: load.seconds });
  return {
    label: load.label,
    rate: round(result.requests.average),
    // Closed loop: each connection sends its next request when the answer is in, so the mean
    // time per request is connections / rate (autocannon's own mean is in whole milliseconds).
    meanMs:
      result.requests.average > 0
        ? round((load.connections * 1000) / result.requests.average, 3)
        : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    total: result.requests.total,
  };
}

/**
 * The same shape of load for work done in this process (the in-process references: signing,
 * verification, argon2, raw ethers sends): `concurrency` loops run `op` back to back for
 * `seconds`; each operation's latency is recorded.
 */
export function loopLoad(
  label: string,
  seconds: number,
  concurrency: number,
  op: (lane: number) => Promise<unknown>,
): Promise<Figure> {
  return timedLoops(label, seconds, concurrency, (lane) => lane, op);
}

/**
 * `count` operations in `concurrency` loops, stopping early when `seconds` have passed: a figure
 * like loopLoad's, for work bounded by a number (`op` gets the operation's index).
 */
export function countedLoop(
  label: string,
  count: number,
  seconds: number,
  concurrency: number,
  op: (index: number) => Promise<unknown>,
): Promise<Figure> {
  let next = 0;
  return timedLoops(label, seconds, concurrency, () => (next < count ? next++ : undefined), op);
}

/** `concurrency` loops, each running `op(take(lane))` until `seconds` pass or `take` says none. */
async function timedLoops(
  label: string,
  seconds: number,
  concurrency: number,
  take: (lane: number) => number | undefined,
  op: (n: number) => Promise<unknown>,
): Promise<Figure> {
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      while (Date.now() < end) {
        const n = take(lane);
        if (n === undefined) break;
        const t0 = performance.now();
        try {
          await op(n);
          latencies.push(performance.now() - t0);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    label,
    rate: round(latencies.length / Math.max(elapsed, 1e-3)),
    ...percentiles(latencies),
    meanMs: round(latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length), 2),
    errors,
    total: latencies.length,
  };
}

export function percentiles(values: number[]): { p50: number; p99: number } {
  if (values.length === 0) return { p50: 0, p99: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: round(at(0.5), 1), p99: round(at(0.99), 1) };
}

export function round(value: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
