import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ReadinessCheck } from '@itp/service-kit';
import type { Upstream } from './upstreams.js';

const MAX_REPORT_CHARS = 500;

function truncate(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > MAX_REPORT_CHARS ? `${t.slice(0, MAX_REPORT_CHARS)}…` : t;
}

/**
 * The upstream's own readiness report in one line: for service-kit's report
 * (`{status, checks: {name: "ok" | "error: ..."}, notReady}`) the checks that are not ok,
 * otherwise the body text (shortened).
 */
export function summarizeReport(text: string): string {
  try {
    const report = JSON.parse(text) as { checks?: unknown };
    if (report && typeof report.checks === 'object' && report.checks !== null) {
      const failing = Object.entries(report.checks as Record<string, unknown>)
        .filter(([, value]) => value !== 'ok')
        .map(([name, value]) => `${name} (${String(value)})`);
      if (failing.length > 0) return truncate(`not ready: ${failing.join(', ')}`);
    }
  } catch {
    // not JSON: report the text as it is
  }
  return truncate(text) || 'no report';
}

const MAX_REPORT_BYTES = 64 * 1024;

interface Answer {
  status: number;
  text: string;
}

/**
 * GET over node:http(s), like the proxy itself (fetch() would refuse upstreams on its "bad
 * ports" list), on a fresh connection (the proxy's pool stays for traffic), bounded by
 * `timeoutMs` for the whole exchange. Rejects with a one-line reason without the address.
 */
function getText(url: URL, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let timedOut = false;
    const request = send(
      url,
      { method: 'GET', agent: false, headers: { accept: 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_REPORT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
        response.on('error', () => undefined); // the request's 'error' reports it
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy();
    }, timeoutMs);
    request.on('error', (err: Error & { code?: unknown }) => {
      clearTimeout(timer);
      const code = typeof err.code === 'string' ? ` (${err.code})` : '';
      reject(new Error(timedOut ? `no answer within ${timeoutMs} ms` : `unreachable${code}`));
    });
    request.end();
  });
}

/** Asks one replica's `GET /health/ready`; rejects with the reason unless it answers 2xx. */
async function checkReplica(baseUrl: string, timeoutMs: number): Promise<void> {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const { status, text } = await getText(new URL('health/ready', base), timeoutMs);
  if (status < 200 || status > 299) throw new Error(`HTTP ${status}: ${summarizeReport(text)}`);
}

/**
 * A readiness check that asks the upstream's own `GET /health/ready` (which covers its Redis,
 * database, chain...). With several replicas the service is ready when at least one of them is
 * (the gateway routes around the others). Rejects, naming the reason and quoting the upstream's
 * report (each replica's, in URL order, when several), unless one answers 2xx within `timeoutMs`.
 * Upstream addresses are left out of the message.
 */
export function upstreamReadinessCheck(upstream: Upstream, timeoutMs: number): ReadinessCheck {
  return {
    name: upstream.name,
    check: async () => {
      const outcomes = await Promise.allSettled(
        upstream.urls.map((url) => checkReplica(url, timeoutMs)),
      );
      if (outcomes.some((o) => o.status === 'fulfilled')) return;
      const reasons = outcomes.map((o) =>
        o.status === 'rejected' && o.reason instanceof Error ? o.reason.message : 'failed',
      );
      if (reasons.length === 1) throw new Error(reasons[0]);
      throw new Error(`no replica ready: ${reasons.map((r, i) => `#${i + 1} ${r}`).join('; ')}`);
    },
  };
}
