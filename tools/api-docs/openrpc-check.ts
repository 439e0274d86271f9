/**
 * The official OpenRPC tools, as CI runs them against live documents (tools/api-docs/
 * openrpc-live.spec.ts):
 * - the meta-schema of @open-rpc/meta-schema with ajv (draft-07), its `https://meta.json-schema.tools/`
 *   reference resolved by @json-schema-tools/meta-schema, formats from ajv-formats;
 * - @open-rpc/test-coverage: its default rules (example calls; schema-faked calls for methods
 *   without examples), then its JSON-schema-faker rule on the same document with the examples
 *   removed, so the parameter schemas are exercised even though every method has examples.
 */
import { createRequire } from 'node:module';
import { isAddress } from 'ethers';

const require = createRequire(import.meta.url);

interface AjvLike {
  addMetaSchema(schema: object, key: string): unknown;
  compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown[] | null };
}

export interface CoverageCall {
  methodName: string;
  params: unknown;
  valid: boolean;
  reason?: string;
}

/** The meta-schema's errors for `doc` (empty when valid). */
export function validateWithMetaSchema(doc: unknown): unknown[] {
  const Ajv = require('ajv').default as new (options: object) => AjvLike;
  const addFormats = require('ajv-formats').default as (ajv: AjvLike) => void;
  const metaSchema = require('@open-rpc/meta-schema').default as object;
  const jsonSchemaTools = require('@json-schema-tools/meta-schema').default as object;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addMetaSchema(jsonSchemaTools, 'https://meta.json-schema.tools');
  const validate = ajv.compile(metaSchema);
  return validate(doc) ? [] : (validate.errors ?? ['invalid']);
}

/**
 * Methods whose parameters carry a rule JSON Schema cannot state, so faked params may break it:
 * getTransactionStats (from ≤ to, at most STATS_MAX_DAYS days apart: a relation between two
 * members). They still run their examples. See docs/adr (API documents).
 */
export const FAKER_EXEMPT = ['getTransactionStats'];

/**
 * `#/components/…` refs inlined (what the test-coverage CLI's parseOpenRPCDocument does before it
 * runs: its rules compile each result schema on its own). Our documents have no recursive refs.
 */
export function dereference(doc: Record<string, unknown>): Record<string, unknown> {
  const resolve = (node: unknown, depth: number): unknown => {
    if (depth > 50) throw new Error('recursive $ref');
    if (Array.isArray(node)) return node.map((item) => resolve(item, depth));
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], doc);
      return resolve(target, depth + 1);
    }
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, resolve(value, depth)]),
    );
  };
  return resolve(doc, 0) as Record<string, unknown>;
}

/** Every call test-coverage makes against the document's servers[0].url, with its verdict. */
export async function runTestCoverage(
  doc: Record<string, unknown>,
  _name: string,
): Promise<CoverageCall[]> {
  const coverage = require('@open-rpc/test-coverage').default as (
    options: object,
  ) => Promise<CoverageCall[]>;
  const FakerRule = require('@open-rpc/test-coverage/build/rules/json-schema-faker-rule')
    .default as new (options: object) => object;
  doc = dereference(doc);
  const methods = doc['methods'] as Array<Record<string, unknown>>;
  const withoutExamples = {
    ...doc,
    methods: methods.map(({ examples: _examples, ...method }) => method),
  };
  const fakedMethods = methods
    .map((m) => m['name'] as string)
    .filter((n) => !FAKER_EXEMPT.includes(n));
  const defaults = await coverage({
    openrpcDocument: doc,
    transport: 'http',
    reporters: ['empty'],
  });
  const faked = await coverage({
    openrpcDocument: withoutExamples,
    transport: 'http',
    reporters: ['empty'],
    rules: [new FakerRule({ only: fakedMethods, numCalls: 5 })],
    only: fakedMethods,
  });
  const url = (doc['servers'] as Array<{ url: string }> | undefined)?.[0]?.url;
  return Promise.all([...defaults, ...faked].map((call) => checkedRefusal(call, url)));
}

/** Every string in `params` that looks like an address in mixed case with a wrong checksum. */
function badChecksumAddresses(params: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      const mixed = /^0x[0-9a-fA-F]{40}$/.test(value) && /[a-f]/.test(value) && /[A-F]/.test(value);
      if (mixed && !isAddress(value)) found.push(value);
    } else if (value !== null && typeof value === 'object') {
      Object.values(value).forEach(walk);
    }
  };
  walk(params);
  return found;
}

/**
 * The address pattern allows any letter case (the service answers EIP-55 mixed case); JSON Schema
 * cannot state the checksum, which the description does: a mixed-case address with a wrong
 * checksum is refused with -32602. The faker makes such addresses. A faked call that failed and
 * carries one is sent again here, and counts as passing only when the service answered exactly
 * that documented refusal.
 */
async function checkedRefusal(call: CoverageCall, url: string | undefined): Promise<CoverageCall> {
  if (call.valid || !url || badChecksumAddresses(call.params).length === 0) return call;
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: call.methodName, params: call.params }),
  });
  const body = (await answer.json()) as { error?: { code?: number; message?: string } };
  const refused = body.error?.code === -32602 && /checksum/i.test(JSON.stringify(body.error));
  return refused
    ? { ...call, valid: true }
    : {
        ...call,
        reason: `${call.reason ?? ''} (not the checksum refusal: ${JSON.stringify(body)})`,
      };
}
