import type { Response, Router } from 'express';
import express from 'express';

/** A dependency check: resolves when the dependency answers, rejects (or times out) otherwise. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<unknown>;
  /**
   * The service cannot serve a single request without it: part of the self-only readiness
   * (`/health/ready/self`, what Kubernetes probes) too. Default false: only the aggregate
   * `/health/ready` (for people and `npm start`) asks it.
   */
  essential?: boolean;
}

/**
 * Another service this one calls, for the aggregate readiness: ready when its self-only
 * readiness (`<baseUrl>/health/ready/self`) answers 200. Never essential: a service that is down
 * behind this one is answered per request (503), it does not take this one out.
 */
export function serviceReadinessCheck(name: string, baseUrl: string): ReadinessCheck {
  const url = `${baseUrl.replace(/\/+$/, '')}/health/ready/self`;
  return {
    name,
    check: async () => {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${name} answered ${res.status}`);
    },
  };
}

export interface ReadinessReport {
  status: 'ready' | 'not ready';
  checks: Record<string, string>;
  notReady: string[];
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function runReadiness(
  checks: readonly ReadinessCheck[],
  timeoutMs: number,
): Promise<ReadinessReport> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => {
      try {
        await withTimeout(Promise.resolve().then(check), timeoutMs);
        return [name, 'ok'] as const;
      } catch (err) {
        return [name, `error: ${err instanceof Error ? err.message : String(err)}`] as const;
      }
    }),
  );
  const notReady = results.filter(([, v]) => v !== 'ok').map(([k]) => k);
  return {
    status: notReady.length === 0 ? 'ready' : 'not ready',
    checks: Object.fromEntries(results),
    notReady,
  };
}

export interface HealthState {
  shuttingDown: boolean;
}

export function healthRouter(
  checks: readonly ReadinessCheck[],
  timeoutMs: number,
  state: HealthState,
): Router {
  const router = express.Router();
  router.get('/health/live', (_req, res) => {
    res.json({ status: 'live' });
  });
  /** While shutting down every readiness answer is 503 (the load balancer stops sending). */
  const shuttingDown = (res: Response): boolean => {
    if (!state.shuttingDown) return false;
    res
      .status(503)
      .json({ status: 'not ready', checks: { process: 'shutting down' }, notReady: ['process'] });
    return true;
  };
  router.get('/health/ready', async (_req, res) => {
    if (shuttingDown(res)) return;
    const report = await runReadiness(checks, timeoutMs);
    res.status(report.status === 'ready' ? 200 : 503).json(report);
  });
  // Self-only readiness (docs/api.md §1): this process, and only the dependencies it cannot
  // serve any request without. A dependency that is down is answered per request (503), never
  // by taking every replica out of the load balancer at once.
  router.get('/health/ready/self', async (_req, res) => {
    if (shuttingDown(res)) return;
    const report = await runReadiness(
      checks.filter((c) => c.essential === true),
      timeoutMs,
    );
    report.checks = { process: 'ok', ...report.checks };
    res.status(report.status === 'ready' ? 200 : 503).json(report);
  });
  return router;
}
