import { z } from 'zod';
import type { RpcMethod } from './method.js';
import { normalizeParams } from './normalize-params.js';
import { RPC_ERRORS } from './rpc-errors.js';
import { wrapOutcome } from './wrap-outcome.js';

export interface OpenRpcInfo {
  title: string;
  version: string;
  description?: string;
}

export interface OpenRpcServer {
  name: string;
  url: string;
}

type JsonSchema = Record<string, unknown>;

interface ContentDescriptor {
  name: string;
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export const OPENRPC_VERSION = '1.2.6';
const SCHEMA_REF = '#/components/schemas/';
const ERROR_REF = '#/components/errors/';
/** OpenRPC component keys must match ^[a-zA-Z0-9.\-_]+$. */
const UNSAFE_KEY_CHARS = /[^a-zA-Z0-9.\-_]/g;

function isRecord(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Replaces every `$ref` by `rename(ref)` (in place). */
function rewriteRefs(node: unknown, rename: (ref: string) => string): void {
  if (Array.isArray(node)) {
    for (const item of node) rewriteRefs(item, rename);
    return;
  }
  if (!isRecord(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') node[key] = rename(value);
    else rewriteRefs(value, rename);
  }
}

/**
 * Converts zod schemas to JSON Schema draft-07 (the dialect of OpenRPC 1.2.6) that can be embedded
 * anywhere in the document: zod's `definitions` (schemas with a `.meta({ id })`, recursive ones)
 * are moved to `components.schemas` and the refs rewritten to point there.
 */
class SchemaCollector {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly texts = new Map<string, string>();

  constructor(reserved: Record<string, JsonSchema>) {
    for (const [name, schema] of Object.entries(reserved)) this.claim(name, 'output', schema);
  }

  convert(schema: z.ZodType, io: 'input' | 'output', localName: string): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-7',
    }) as JsonSchema;
    delete json['$schema'];
    const definitions = isRecord(json['definitions']) ? json['definitions'] : {};
    delete json['definitions'];

    const names = new Map<string, string>();
    for (const [key, def] of Object.entries(definitions)) {
      // zod names anonymous (recursive) schemas __schema0, __schema1…: local to this conversion.
      const base = key.startsWith('__schema') ? `${localName}_${key.slice(2)}` : key;
      names.set(key, this.claim(base.replace(UNSAFE_KEY_CHARS, '_'), io, def as JsonSchema));
    }
    const selfReferencing = JSON.stringify(json).includes('"$ref":"#"');
    const rootName = selfReferencing ? this.claim(localName, io, json) : undefined;
    const rename = (ref: string): string => {
      if (ref === '#' && rootName) return SCHEMA_REF + rootName;
      if (ref.startsWith('#/definitions/')) {
        const name = names.get(ref.slice('#/definitions/'.length));
        if (name) return SCHEMA_REF + name;
      }
      return ref;
    };
    for (const name of new Set(names.values())) rewriteRefs(this.schemas[name], rename);
    if (rootName) {
      rewriteRefs(this.schemas[rootName], rename);
      return { $ref: SCHEMA_REF + rootName };
    }
    rewriteRefs(json, rename);
    return json;
  }

  /** Finds a component key for `schema`: its own name, or `<name>_<io>` if that is taken. */
  private claim(name: string, io: string, schema: JsonSchema): string {
    const text = JSON.stringify(schema);
    for (const candidate of [name, `${name}_${io}`]) {
      const existing = this.texts.get(candidate);
      if (existing === undefined) {
        this.texts.set(candidate, text);
        this.schemas[candidate] = schema;
        return candidate;
      }
      if (existing === text) return candidate;
    }
    throw new Error(`Two different schemas are both registered as "${name}" (meta id clash)`);
  }

  /** Follows a `$ref` into components.schemas (one level is all zod produces). */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema['$ref'];
    if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) {
      return this.schemas[ref.slice(SCHEMA_REF.length)] ?? schema;
    }
    return schema;
  }
}

interface ParamsLayout {
  structure: 'by-name' | 'by-position';
  params: ContentDescriptor[];
  /** Turns example params (as a client sends them) into OpenRPC example params. */
  exampleParams: (params: unknown) => Array<{ name: string; value: unknown }>;
}

function descriptor(name: string, schema: unknown, required: boolean): ContentDescriptor {
  const json = isRecord(schema) ? schema : {};
  const out: ContentDescriptor = { name, required, schema: json };
  if (typeof json['description'] === 'string') out.description = json['description'];
  return out;
}

function acceptsOmitted(method: RpcMethod): boolean {
  try {
    return method.params.safeParse(method.paramsStyle === 'object' ? {} : []).success;
  } catch {
    return false; // async refinements: treat params as required
  }
}

/**
 * 'object' style with an object schema → `by-name`, one descriptor per property (the natural
 * reading of `params: {…}`; the `[ {…} ]` form is also accepted, see x-params-style).
 * 'positional' with a tuple → `by-position`, one descriptor per item (name = the item's title,
 * else `arg<i>`). Anything else → `by-position` with one descriptor `params` holding the whole
 * params value.
 */
function paramsLayout(method: RpcMethod, collector: SchemaCollector): ParamsLayout {
  const schema = collector.convert(method.params, 'input', `${method.name}_params`);
  const shape = collector.resolve(schema);
  const properties = shape['properties'];
  if (method.paramsStyle === 'object' && shape['type'] === 'object' && isRecord(properties)) {
    const required = new Set(Array.isArray(shape['required']) ? shape['required'] : []);
    return {
      structure: 'by-name',
      params: Object.entries(properties).map(([name, prop]) =>
        descriptor(name, prop, required.has(name)),
      ),
      exampleParams: (params) => {
        const normalized = normalizeParams('object', params);
        const object = normalized.ok && isRecord(normalized.value) ? normalized.value : {};
        return Object.entries(object).map(([name, value]) => ({ name, value }));
      },
    };
  }
  const items = shape['items'];
  if (method.paramsStyle === 'positional' && shape['type'] === 'array' && Array.isArray(items)) {
    const minItems = typeof shape['minItems'] === 'number' ? shape['minItems'] : 0;
    const names = items.map((item, i) =>
      isRecord(item) && typeof item['title'] === 'string' ? item['title'] : `arg${i}`,
    );
    return {
      structure: 'by-position',
      params: items.map((item, i) => descriptor(names[i] ?? `arg${i}`, item, i < minItems)),
      exampleParams: (params) =>
        (Array.isArray(params) ? params : []).map((value, i) => ({
          name: names[i] ?? `arg${i}`,
          value,
        })),
    };
  }
  return {
    structure: 'by-position',
    params: [descriptor('params', schema, !acceptsOmitted(method))],
    exampleParams: (params) => [{ name: 'params', value: params }],
  };
}

function successSchema(method: RpcMethod, resultData: JsonSchema): JsonSchema {
  const properties: JsonSchema = {
    resultCode: { type: 'string', const: '200' },
    resultMessage: { type: 'string', const: 'Success' },
  };
  const required = ['resultCode', 'resultMessage'];
  if (method.kind === 'transaction') {
    properties['TransactionID'] = {
      type: 'string',
      description: 'Hash of the transaction sent to the chain (0x-prefixed hex).',
    };
    required.push('TransactionID');
  }
  properties['resultData'] = resultData;
  required.push('resultData');
  return { title: `${method.name} success`, type: 'object', properties, required };
}

const SERVICE_ERROR_SCHEMA: JsonSchema = {
  title: 'Service error',
  description:
    'A failure of the service (not of the protocol): see x-service-errors of each method for the codes.',
  type: 'object',
  properties: {
    resultCode: { type: 'string', not: { const: '200' }, description: 'e.g. "400", "404", "500"' },
    resultMessage: { type: 'string', description: 'What happened.' },
    resultData: { type: 'string', const: '' },
  },
  required: ['resultCode', 'resultMessage', 'resultData'],
};

function buildMethod(method: RpcMethod, collector: SchemaCollector): JsonSchema {
  const layout = paramsLayout(method, collector);
  const resultData = collector.convert(method.result, 'output', `${method.name}_result`);
  const doc: JsonSchema = { name: method.name, summary: method.summary };
  if (method.description) doc['description'] = method.description;
  doc['paramStructure'] = layout.structure;
  doc['params'] = layout.params;
  doc['result'] = {
    name: 'result',
    required: true,
    schema: { oneOf: [successSchema(method, resultData), { $ref: `${SCHEMA_REF}ServiceError` }] },
  };
  doc['errors'] = [{ $ref: `${ERROR_REF}InvalidParams` }, { $ref: `${ERROR_REF}InternalError` }];
  if (method.examples?.length) {
    doc['examples'] = method.examples.map((example) => ({
      name: example.name,
      params: layout.exampleParams(example.params),
      result: { name: 'result', value: wrapOutcome(method, example.result) },
    }));
  }
  doc['x-params-style'] = method.paramsStyle;
  doc['x-kind'] = method.kind ?? 'data';
  doc['x-service-errors'] = method.errors ?? [];
  return doc;
}

/**
 * `servers[].url` made absolute, as the meta-schema demands (format `uri`): a relative URL (e.g.
 * `/token`) is appended to `base` (`PUBLIC_URL`, or the origin the client reached: protocol and
 * host as express saw them, honouring trust proxy). Absolute URLs stay; without a base, unchanged.
 */
export function absoluteServers(
  servers: readonly OpenRpcServer[],
  base: string | undefined,
): OpenRpcServer[] {
  return servers.map(({ name, url }) => {
    if (!base || /^[a-z][a-z0-9+.-]*:/i.test(url)) return { name, url };
    return { name, url: `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}` };
  });
}

/**
 * The OpenRPC 1.2.6 document of a set of methods (answered by `rpc.discover`). Built once, at
 * server construction.
 */
export function buildOpenRpcDocument(
  info: OpenRpcInfo,
  methods: readonly RpcMethod[],
  servers?: readonly OpenRpcServer[],
): Record<string, unknown> {
  const collector = new SchemaCollector({ ServiceError: SERVICE_ERROR_SCHEMA });
  const docInfo: JsonSchema = { title: info.title, version: info.version };
  if (info.description) docInfo['description'] = info.description;
  const doc: Record<string, unknown> = { openrpc: OPENRPC_VERSION, info: docInfo };
  if (servers?.length) doc['servers'] = servers.map(({ name, url }) => ({ name, url }));
  doc['methods'] = methods.map((method) => buildMethod(method, collector));
  doc['components'] = {
    schemas: collector.schemas,
    errors: {
      InvalidParams: {
        code: RPC_ERRORS.INVALID_PARAMS.code,
        message: RPC_ERRORS.INVALID_PARAMS.message,
        data: {
          issues: [{ path: ['<key or index>'], message: '<what is wrong>' }],
        },
      },
      InternalError: {
        code: RPC_ERRORS.INTERNAL_ERROR.code,
        message: RPC_ERRORS.INTERNAL_ERROR.message,
      },
    },
  };
  return doc;
}
