import type { ServiceProcess } from './service-process.js';

const POLL_MS = 150;

/** What the last readiness probe saw, for the error message. */
async function probe(url: string): Promise<{ ok: boolean; seen: string }> {
  try {
    const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(3000) });
    const body = await res.text();
    return { ok: res.status === 200, seen: `HTTP ${res.status} ${body.slice(0, 300)}` };
  } catch {
    return { ok: false, seen: 'no answer' };
  }
}

/**
 * Resolves once GET /health/ready answers 200. Rejects when the process ends first or when
 * `deadline` (epoch ms) passes, saying what the last probe saw.
 */
export async function waitForReady(service: ServiceProcess, deadline: number): Promise<void> {
  let ended: string | undefined;
  void service.exited.then((how) => (ended = how));
  let seen = 'no answer';
  for (;;) {
    if (ended) throw new Error(`${service.name} ${ended} during start`);
    const result = await probe(service.url);
    if (result.ok) return;
    seen = result.seen;
    if (Date.now() > deadline) {
      throw new Error(`${service.name} was not ready at ${service.url} in time (last: ${seen})`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
