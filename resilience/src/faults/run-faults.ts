import { readFileSync } from 'node:fs';
import type { Flows } from '../client/flows.js';
import { sleep } from '@itp/harness';
import { waitFor } from '@itp/testing/wait-for';
import type { Stack } from '../stack/start-stack.js';
import { classifyRest, classifyRpc, type MixedLoad, type Outcome } from './mixed-load.js';

export type FaultKind =
  | 'redis-stop'
  | 'postgres-stop'
  | 'chain-pause'
  | 'chain-stop'
  | 'sigterm-token-rpc'
  | 'sigterm-auth-service';

export interface FaultFigures {
  kind: FaultKind;
  downMs: number;
  /** From the fault to the probe's first clear 503 (null: none seen, e.g. a SIGTERM). */
  msTo503: number | null;
  /** From the dependency's return to the probe's first success. */
  msToRecovery: number | null;
  /** A correct-password login right after the recovery. */
  loginAfter: number;
  /** Outcomes of the load's requests during the fault window (fault start → recovery). */
  outcomes: Record<Outcome, number>;
  /** Some unclear answers, for the report. */
  unclear: string[];
  /** Some refused (4xx) answers, for the report. */
  refused: string[];
}

/** How long a fault is held at most while the probe waits for its first clear 503. */
export const MAX_MS_TO_503 = 20_000;

/** The request that shows whether what the fault broke works: per kind, one that needs it. */
async function probe(kind: FaultKind, flows: Flows, stack: Stack): Promise<Outcome> {
  const user = stack.accounts.users[2]!;
  switch (kind) {
    case 'redis-stop':
    case 'postgres-stop':
    case 'sigterm-auth-service':
      return classifyRest(await flows.api.login(user.id, user.password));
    case 'chain-pause':
    case 'chain-stop':
      return classifyRpc(
        await flows.api.rpc('/token', 'getBalance', {
          address: '0x000000000000000000000000000000000000bEEF',
        }),
      );
    case 'sigterm-token-rpc':
      return classifyRpc(
        await flows.api.rpc('/token', 'getBalance', {
          address: '0x000000000000000000000000000000000000bEEF',
        }),
      );
  }
}

async function inject(kind: FaultKind, stack: Stack): Promise<() => Promise<void>> {
  switch (kind) {
    case 'redis-stop':
      await stack.redis.stop();
      return () => stack.redis.start();
    case 'postgres-stop':
      await stack.postgres.stop();
      return () => stack.postgres.start();
    case 'chain-pause':
      stack.chain.pause();
      return async () => stack.chain.resume();
    case 'chain-stop':
      await stack.chain.stop();
      return () => stack.chain.start();
    case 'sigterm-token-rpc':
    case 'sigterm-auth-service': {
      const app = stack.apps[kind === 'sigterm-token-rpc' ? 'token-rpc' : 'auth-service'];
      await app.stop();
      return async () => {
        app.start();
        await app.waitReady('/health/live', Date.now() + 120_000);
      };
    }
  }
}

/**
 * One fault while `load` runs: inject it, probe until the first clear 503, keep it for `downMs`
 * (or until that first 503, at most MAX_MS_TO_503), restore, probe until the first success; then a correct-password login (no lockout).
 */
export async function runFault(
  kind: FaultKind,
  downMs: number,
  stack: Stack,
  flows: Flows,
  load: MixedLoad,
): Promise<FaultFigures> {
  const from = load.records.length;
  const started = Date.now();
  const restore = await inject(kind, stack);
  let msTo503: number | null = null;
  const probeUntil = started + downMs;
  // The fault is held for downMs, and longer (up to MAX_MS_TO_503) until the probe has seen its
  // first clear 503: on a loaded machine one probe can take longer than a short fault, and a
  // fault that ended before the probe looked proves nothing either way.
  const expects503 = !kind.startsWith('sigterm');
  const giveUpAt = started + Math.max(downMs, MAX_MS_TO_503);
  while (Date.now() < probeUntil || (expects503 && msTo503 === null && Date.now() < giveUpAt)) {
    const outcome = await probe(kind, flows, stack);
    if (outcome === 'unavailable' && msTo503 === null) msTo503 = Date.now() - started;
    await sleep(100);
  }
  await sleep(Math.max(0, probeUntil - Date.now()));
  await restore();
  const back = Date.now();
  const msToRecovery = await waitFor(async () => (await probe(kind, flows, stack)) === 'success', {
    what: `the first success after the ${kind} fault`,
    timeoutMs: 60_000,
    intervalMs: 100,
  }).then(
    () => Date.now() - back,
    () => null, // not recovered within 60 s: the figures say so
  );
  const user = stack.accounts.users[2]!;
  const login = await flows.api.login(user.id, user.password);
  const window = load.records.slice(from);
  const outcomes: Record<Outcome, number> = {
    success: 0,
    unavailable: 0,
    refused: 0,
    'upstream-down': 0,
    unclear: 0,
    'no-answer': 0,
  };
  for (const r of window) outcomes[r.outcome] += 1;
  return {
    kind,
    downMs,
    msTo503,
    msToRecovery,
    loginAfter: login.status,
    outcomes,
    unclear: window
      .filter((r) => r.outcome === 'unclear' || r.outcome === 'no-answer')
      .slice(0, 8)
      .map((r) => `${r.op}: ${r.detail}${explainRequestId(r.detail, stack.logFiles())}`),
    refused: window
      .filter((r) => r.outcome === 'refused')
      .slice(0, 3)
      .map((r) => `${r.op}: ${r.detail}`),
  };
}

/**
 * An "Internal error (request id …)" answer says nothing of its cause, which only the service's
 * log holds: the error lines (level ≥ 50) of that request id, so that a report names the cause.
 */
export function explainRequestId(detail: string, logFiles: string[]): string {
  const id = /request id ([0-9a-f-]{36})/.exec(detail)?.[1];
  if (!id) return '';
  const found: string[] = [];
  for (const file of logFiles) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.includes(id)) continue;
      try {
        const entry = JSON.parse(line) as {
          level?: number;
          service?: string;
          msg?: string;
          err?: { type?: string; message?: string; stack?: string };
        };
        if ((entry.level ?? 0) < 50) continue;
        const stack = entry.err?.stack?.split('\n').slice(0, 6).join(' | ') ?? '';
        found.push(
          `${entry.service ?? file}: ${entry.err?.type ?? ''} ${stack || entry.msg || ''}`,
        );
      } catch {
        // not a JSON line
      }
    }
  }
  return found.length > 0 ? ` ← log: ${found.join(' ;; ')}` : ' ← log: no error line for this id';
}
