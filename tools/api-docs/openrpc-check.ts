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
  return [...defaults, ...faked];
}
