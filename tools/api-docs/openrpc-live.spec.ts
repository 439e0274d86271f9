import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { validateWithMetaSchema, runTestCoverage, type CoverageCall } from './openrpc-check.js';
import { startRpcUpstreams, type RpcUpstreams } from './rpc-upstreams.js';

// The OpenRPC documents as the live services answer rpc.discover: valid against the official
// meta-schema (ajv) and @open-rpc/schema-utils-js, without servers (no PUBLIC_URL here: never a
// request's Host; clients call the URL they fetched the document from); and every call
// @open-rpc/test-coverage generates from them accepted by the real servers.

/**
 * What a script of this folder prints (JSON) for `doc` on its stdin, run in its own Node process
 * (@open-rpc/schema-utils-js require()s an ES module: fine in Node, not in jest's module system);
 * its stderr when it fails.
 */
function runValidator(file: string, doc: unknown): unknown {
  const script = fileURLToPath(new URL(file, import.meta.url));
  const run = spawnSync(process.execPath, [script], {
    input: JSON.stringify(doc),
    encoding: 'utf8',
  });
  if (run.status !== 0) return run.stderr;
  return JSON.parse(run.stdout) as unknown;
}

/** @open-rpc/schema-utils-js's verdict: true or the error text. */
const validateOpenRPCDocument = (doc: unknown) => runValidator('./validate-openrpc.mjs', doc);

/** MethodCallValidator (schema-utils-js) on every example's params: `{ checked, failures }`. */
const validateExamples = (doc: unknown) => runValidator('./validate-examples.mjs', doc);

type Doc = Record<string, unknown> & {
  servers?: Array<{ url: string }>;
  methods: Array<Record<string, unknown>>;
};

let upstreams: RpcUpstreams | undefined;
const endpoints: Array<{ name: string; url: () => string }> = [
  { name: 'token', url: () => `${upstreams!.token.url}/token` },
  { name: 'erc20', url: () => `${upstreams!.token.url}/token/erc20` },
  { name: 'block', url: () => `${upstreams!.block.url}/block` },
];

async function discover(url: string, headers: Record<string, string> = {}): Promise<Doc> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'rpc.discover' }),
  });
  return ((await res.json()) as { result: Doc }).result;
}

beforeAll(async () => {
  upstreams = await startRpcUpstreams('openrpc');
}, 60_000);

afterAll(async () => {
  await upstreams?.close();
});

describe.each(endpoints)('OpenRPC document of /$name', ({ name, url }) => {
  it('is valid against the meta-schema (ajv) and schema-utils-js, no server from the Host', async () => {
    // A client's (even a trusted proxy's) X-Forwarded-Host does not become the server.
    const doc = await discover(url(), {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
    });
    expect(doc.servers).toBeUndefined();
    expect(JSON.stringify(doc)).not.toContain('evil.example');
    expect(validateWithMetaSchema(doc)).toEqual([]);
    expect(validateOpenRPCDocument(doc)).toBe(true);
  });

  it('has examples on every method', async () => {
    const doc = await discover(url());
    for (const method of doc.methods) {
      const examples = (method['examples'] as unknown[] | undefined)?.length ?? 0;
      expect({ method: method['name'], hasExamples: examples > 0 }).toEqual({
        method: method['name'],
        hasExamples: true,
      });
    }
  });

  it('every example passes MethodCallValidator (checksummed mixed-case addresses included)', async () => {
    const doc = await discover(url());
    const answer = validateExamples(doc) as { checked: number; failures: unknown[] };
    expect(answer.failures).toEqual([]);
    expect(answer.checked).toBeGreaterThan(0);
  });

  it('passes every call @open-rpc/test-coverage generates (examples, and schema-faked params)', async () => {
    const doc = await discover(url());
    // The client calls the URL it fetched the document from.
    doc.servers = [{ url: url() }];
    const failed = (await runTestCoverage(doc, name)).filter((call: CoverageCall) => !call.valid);
    expect(
      failed.map(({ methodName, params, reason }) => ({ methodName, params, reason })),
    ).toEqual([]);
  });
});

describe('OpenRPC document of /block', () => {
  it('documents by-position params on every method, and refuses named params with -32602', async () => {
    const block = upstreams!.block;
    const doc = await discover(`${block.url}/block`);
    expect(new Set(doc.methods.map((m) => m['paramStructure']))).toEqual(new Set(['by-position']));
    const answer = await block.call('getTransactionStats', {
      from: '2026-01-01',
      to: '2026-01-02',
    });
    expect(answer.error?.code).toBe(-32602);
    const positional = await block.call('getTransactionStats', [
      { from: '2026-01-01', to: '2026-01-02' },
    ]);
    expect(positional.result?.resultCode).toBe('200');
  });
});
