import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { defineMethod, type RpcMethod } from './method.js';
import { buildOpenRpcDocument } from './openrpc.js';

type Json = Record<string, unknown>;

const Address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .meta({ id: 'Address', description: 'A 0x-prefixed account address' });

interface TreeNode {
  name: string;
  children: TreeNode[];
}
const Tree: z.ZodType<TreeNode> = z.object({
  name: z.string(),
  get children() {
    return z.array(Tree);
  },
});

const TransferParams = z
  .object({ from: Address, to: Address, amount: z.string().regex(/^\d+$/) })
  .meta({ id: 'TransferParams' });

const methods: RpcMethod[] = [
  defineMethod({
    name: 'net_getTempKey',
    summary: 'Issues a temporary key',
    description: 'Longer text',
    paramsStyle: 'object',
    params: z.object({
      address: Address,
      keyType: z.enum(['transfer', 'createToken', 'erc20']).describe('What the key is for'),
      ttl: z.number().int().default(300),
    }),
    result: z.object({ tempKey: z.string() }),
    errors: [{ resultCode: '404', when: 'the address is not in the wallet' }],
    examples: [
      {
        name: 'transfer key',
        params: { address: '0x' + '1'.repeat(40), keyType: 'transfer' },
        result: { tempKey: 'abc' },
      },
    ],
    handler: async () => ({ tempKey: 'abc' }),
  }),
  defineMethod({
    name: 'createAddress',
    summary: 'No params',
    paramsStyle: 'object',
    params: z.object({}),
    result: z.object({ address: Address }),
    handler: async () => ({ address: '0x' }),
  }),
  defineMethod({
    name: 'transfer',
    summary: 'Sends coin',
    paramsStyle: 'object',
    params: TransferParams,
    result: z.null(),
    kind: 'transaction',
    examples: [
      {
        name: 'send',
        params: [{ from: '0x1', to: '0x2', amount: '1' }],
        result: { transactionId: '0xfeed', resultData: null },
      },
    ],
    handler: async () => ({ transactionId: '0x', resultData: null }),
  }),
  defineMethod({
    name: 'getBlock',
    summary: 'A block',
    paramsStyle: 'positional',
    params: z.tuple([
      z.union([z.number().int(), z.literal('latest')]).meta({ title: 'block' }),
      z.boolean().optional(),
    ]),
    result: z.object({ number: z.number(), tree: Tree }),
    examples: [{ name: 'latest', params: ['latest', true], result: { number: 1 } }],
    handler: async () => ({ number: 1, tree: { name: 'root', children: [] } }),
  }),
  defineMethod({
    name: 'many',
    summary: 'Variadic',
    paramsStyle: 'positional',
    params: z.array(z.string()),
    result: z.number(),
    handler: async (items) => items.length,
  }),
  defineMethod({
    name: 'either',
    summary: 'Params that are not one object shape',
    paramsStyle: 'object',
    params: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
    result: z.string(),
    handler: async () => 'x',
  }),
  defineMethod({
    name: 'transformed',
    summary: 'Result schema with a default',
    paramsStyle: 'object',
    params: z.object({}).optional(),
    result: z.object({ count: z.number().default(0) }),
    handler: async () => ({ count: 1 }),
  }),
];

const doc = buildOpenRpcDocument(
  { title: 'Token API', version: '2.0.0', description: 'JSON-RPC 2.0 token API' },
  methods,
  [{ name: 'gateway', url: 'http://127.0.0.1:8080/token' }],
);
const docMethods = doc['methods'] as Json[];
const components = doc['components'] as { schemas: Record<string, Json>; errors: Json };

function method(name: string): Json {
  const found = docMethods.find((m) => m['name'] === name);
  if (!found) throw new Error(`no method ${name} in the document`);
  return found;
}

function walk(node: unknown, visit: (key: string, value: unknown) => void): void {
  if (Array.isArray(node)) node.forEach((item) => walk(item, visit));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      visit(key, value);
      walk(value, visit);
    }
  }
}

function resolvePointer(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

describe('buildOpenRpcDocument', () => {
  it('has the OpenRPC 1.2.6 top level: info, servers, methods, components', () => {
    expect(doc['openrpc']).toBe('1.2.6');
    expect(doc['info']).toEqual({
      title: 'Token API',
      version: '2.0.0',
      description: 'JSON-RPC 2.0 token API',
    });
    expect(doc['servers']).toEqual([{ name: 'gateway', url: 'http://127.0.0.1:8080/token' }]);
    expect(docMethods.map((m) => m['name'])).toEqual(methods.map((m) => m.name));
    expect(components.errors).toMatchObject({
      InvalidParams: { code: -32602 },
      InternalError: { code: -32603 },
    });
  });

  it('is plain JSON whose $refs all resolve inside the document, with no $schema or definitions', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    const refs: string[] = [];
    walk(doc, (key, value) => {
      expect(key).not.toBe('$schema');
      expect(key).not.toBe('definitions');
      if (key === '$ref') refs.push(value as string);
    });
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(resolvePointer(ref)).toBeDefined();
    for (const name of Object.keys(components.schemas)) expect(name).toMatch(/^[a-zA-Z0-9.\-_]+$/);
  });

  it("describes 'object' params by name, one descriptor per property", () => {
    const m = method('net_getTempKey');
    expect(m).toMatchObject({
      summary: 'Issues a temporary key',
      description: 'Longer text',
      paramStructure: 'by-name',
      'x-params-style': 'object',
      'x-kind': 'data',
      'x-service-errors': [{ resultCode: '404', when: 'the address is not in the wallet' }],
    });
    expect(m['params']).toEqual([
      { name: 'address', required: true, schema: { $ref: '#/components/schemas/Address' } },
      {
        name: 'keyType',
        required: true,
        description: 'What the key is for',
        schema: {
          type: 'string',
          enum: ['transfer', 'createToken', 'erc20'],
          description: 'What the key is for',
        },
      },
      // A default makes the field optional for the caller (input view of the schema).
      { name: 'ttl', required: false, schema: expect.objectContaining({ default: 300 }) },
    ]);
    expect(method('createAddress')['params']).toEqual([]);
  });

  it('follows a params schema registered with an id', () => {
    const m = method('transfer');
    expect(m['paramStructure']).toBe('by-name');
    expect((m['params'] as Json[]).map((p) => p['name'])).toEqual(['from', 'to', 'amount']);
    expect(components.schemas['TransferParams']).toMatchObject({ type: 'object' });
  });

  it("describes tuple 'positional' params by position, optional items not required", () => {
    const m = method('getBlock');
    expect(m['paramStructure']).toBe('by-position');
    expect(m['params']).toEqual([
      { name: 'block', required: true, schema: expect.objectContaining({ title: 'block' }) },
      { name: 'arg1', required: false, schema: { type: 'boolean' } },
    ]);
  });

  it('falls back to one params descriptor for shapes a descriptor list cannot express', () => {
    expect(method('many')).toMatchObject({
      paramStructure: 'by-position',
      // Omitted params are [] here, which the schema accepts: not required.
      params: [{ name: 'params', required: false, schema: { type: 'array' } }],
    });
    expect(method('either')).toMatchObject({
      paramStructure: 'by-position',
      params: [{ name: 'params', required: true, schema: { anyOf: expect.any(Array) } }],
    });
  });

  it('gives each method the whole result object: success or service error', () => {
    const result = method('net_getTempKey')['result'] as { schema: { oneOf: Json[] } };
    const [ok, failure] = result.schema.oneOf;
    expect(ok).toEqual({
      title: 'net_getTempKey success',
      type: 'object',
      properties: {
        resultCode: { type: 'string', const: '200' },
        resultMessage: { type: 'string', const: 'Success' },
        resultData: expect.objectContaining({ type: 'object' }),
      },
      required: ['resultCode', 'resultMessage', 'resultData'],
    });
    expect(failure).toEqual({ $ref: '#/components/schemas/ServiceError' });
    expect(components.schemas['ServiceError']).toMatchObject({
      properties: { resultData: { const: '' } },
    });
  });

  it('adds TransactionID to the result of transaction methods', () => {
    const result = method('transfer')['result'] as { schema: { oneOf: Json[] } };
    expect(result.schema.oneOf[0]).toMatchObject({
      properties: { TransactionID: { type: 'string' } },
      required: ['resultCode', 'resultMessage', 'TransactionID', 'resultData'],
    });
    expect(method('transfer')['x-kind']).toBe('transaction');
  });

  it('describes results as sent (output view): defaults make fields required', () => {
    const result = method('transformed')['result'] as { schema: { oneOf: Json[] } };
    const resultData = (result.schema.oneOf[0]?.['properties'] as Json)['resultData'];
    expect(resultData).toMatchObject({ required: ['count'] });
  });

  it('moves recursive schemas to components', () => {
    const refs: string[] = [];
    walk(method('getBlock')['result'], (key, value) => {
      if (key === '$ref') refs.push(value as string);
    });
    const treeRef = refs.find((ref) => ref.startsWith('#/components/schemas/getBlock_result'));
    expect(treeRef).toBeDefined();
    const tree = resolvePointer(treeRef ?? '');
    expect(tree).toMatchObject({
      type: 'object',
      properties: { children: { type: 'array', items: { $ref: treeRef } } },
    });
  });

  it('turns examples into OpenRPC example pairings with the wrapped result', () => {
    expect(method('net_getTempKey')['examples']).toEqual([
      {
        name: 'transfer key',
        params: [
          { name: 'address', value: '0x' + '1'.repeat(40) },
          { name: 'keyType', value: 'transfer' },
        ],
        result: {
          name: 'result',
          value: { resultCode: '200', resultMessage: 'Success', resultData: { tempKey: 'abc' } },
        },
      },
    ]);
    expect(method('transfer')['examples']).toEqual([
      {
        name: 'send',
        // The `[ {…} ]` form of an example is shown by name as well.
        params: [
          { name: 'from', value: '0x1' },
          { name: 'to', value: '0x2' },
          { name: 'amount', value: '1' },
        ],
        result: {
          name: 'result',
          value: {
            resultCode: '200',
            resultMessage: 'Success',
            TransactionID: '0xfeed',
            resultData: null,
          },
        },
      },
    ]);
    expect(method('getBlock')['examples']).toEqual([
      expect.objectContaining({
        params: [
          { name: 'block', value: 'latest' },
          { name: 'arg1', value: true },
        ],
      }),
    ]);
  });

  it('refuses a transaction example without a TransactionOutcome', () => {
    const bad = defineMethod({
      name: 'bad',
      summary: 'x',
      paramsStyle: 'object',
      params: z.object({}),
      result: z.string(),
      kind: 'transaction',
      examples: [{ name: 'wrong', params: {}, result: '0x' }],
      handler: async () => ({ transactionId: '0x', resultData: '' }),
    });
    expect(() => buildOpenRpcDocument({ title: 't', version: '1' }, [bad])).toThrow(TypeError);
  });

  it('omits servers when none are given', () => {
    expect(buildOpenRpcDocument({ title: 't', version: '1' }, [])).not.toHaveProperty('servers');
  });
});
