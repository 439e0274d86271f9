import fc from 'fast-check';
import { send } from '../client/http.js';
import { checkRest, checkRpc, type Verdict } from './check-answer.js';
import {
  restCases,
  rpcCases,
  type FuzzCase,
  type FuzzCredentials,
  type RpcMethodDoc,
} from './fuzz-cases.js';
import type { JsonSchema } from './json-schema-arbitrary.js';

export const RPC_PATHS = ['/token', '/token/erc20', '/block'] as const;

export interface FuzzFigures {
  seed: number;
  inputs: number;
  /** Inputs per endpoint / method (`POST /v2/auth/auth-user`, `/token transfer`, …). */
  perTarget: Record<string, number>;
  /** HTTP status → count (0 = no answer). */
  statuses: Record<string, number>;
  verdicts: Record<Verdict, number>;
  /** The first problems found, for the report (request and answer excerpts). */
  problems: Array<{
    target: string;
    verdict: Verdict;
    status: number;
    sent: string;
    answer: string;
  }>;
  seconds: number;
}

/** The methods of each JSON-RPC path, from its own rpc.discover (built from the zod schemas). */
export async function discoverMethods(base: string): Promise<RpcMethodDoc[]> {
  const methods: RpcMethodDoc[] = [];
  for (const path of RPC_PATHS) {
    const answer = await send(base, path, {
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'rpc.discover' }),
      headers: { 'content-type': 'application/json' },
    });
    const doc = JSON.parse(answer.text) as {
      result: {
        methods: Array<{
          name: string;
          paramStructure?: string;
          params: Array<{ name: string; schema: JsonSchema; required?: boolean }>;
        }>;
      };
    };
    for (const m of doc.result.methods) {
      methods.push({
        path,
        name: m.name,
        byPosition: m.paramStructure === 'by-position',
        params: m.params,
      });
    }
  }
  return methods;
}

export interface FuzzOptions {
  base: string;
  inputs: number;
  seed: number;
  concurrency: number;
  credentials: FuzzCredentials;
  /** The client address the fuzzer's requests claim (X-Forwarded-For). */
  ip: string;
  onProgress?: (done: number) => void;
}

/**
 * Sends `inputs` generated requests (fast-check, seeded: a run can be repeated) to every REST
 * endpoint and JSON-RPC method through the gateway, `concurrency` at a time, and judges each
 * answer (check-answer.ts).
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzFigures> {
  const started = Date.now();
  const methods = await discoverMethods(options.base);
  const arbitrary = fc.oneof(
    { weight: 1, arbitrary: restCases(options.credentials) },
    { weight: 2, arbitrary: rpcCases(methods) },
  );
  const figures: FuzzFigures = {
    seed: options.seed,
    inputs: 0,
    perTarget: {},
    statuses: {},
    verdicts: {
      ok: 0,
      'no-answer': 0,
      '5xx': 0,
      'undocumented-shape': 0,
      'undocumented-code': 0,
      'internal-error': 0,
    },
    problems: [],
    seconds: 0,
  };
  const CHUNK = 500;
  for (let chunk = 0; figures.inputs < options.inputs; chunk++) {
    const cases = fc.sample(arbitrary, {
      numRuns: Math.min(CHUNK, options.inputs - figures.inputs),
      seed: options.seed + chunk,
    });
    let next = 0;
    const worker = async () => {
      for (let c = cases[next++]; c; c = cases[next++]) await fuzzOne(c, options, figures);
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    options.onProgress?.(figures.inputs);
  }
  figures.seconds = (Date.now() - started) / 1000;
  return figures;
}

async function fuzzOne(c: FuzzCase, options: FuzzOptions, figures: FuzzFigures): Promise<void> {
  const answer = await send(options.base, c.path, {
    method: c.method,
    body: c.body,
    headers: { ...c.headers, 'x-forwarded-for': options.ip },
    timeoutMs: 60_000,
  });
  const verdict =
    c.api === 'rpc' ? checkRpc(answer) : checkRest(c.api, answer, false, c.oauthErrors);
  figures.inputs += 1;
  figures.perTarget[c.target] = (figures.perTarget[c.target] ?? 0) + 1;
  figures.statuses[String(answer.status)] = (figures.statuses[String(answer.status)] ?? 0) + 1;
  figures.verdicts[verdict] += 1;
  if (verdict !== 'ok' && figures.problems.length < 25) {
    const sent = typeof c.body === 'string' ? c.body : (c.body?.toString('latin1') ?? '');
    figures.problems.push({
      target: c.target,
      verdict,
      status: answer.status,
      sent: `${c.method} ${c.path.slice(0, 80)} ${sent.slice(0, 300)}${sent.length > 300 ? `… (${sent.length} chars)` : ''}`,
      answer: (answer.error ?? answer.text).slice(0, 300),
    });
  }
}
