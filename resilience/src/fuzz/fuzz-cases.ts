import fc from 'fast-check';
import { z } from 'zod';
import { REST_ENDPOINTS } from '@itp/schemas';
import { hostileValue, mutate, protoObject } from './hostile.js';
import { schemaArbitrary, type JsonSchema } from './json-schema-arbitrary.js';

/** One request the fuzzer sends, and what it is counted under. */
export interface FuzzCase {
  /** `POST /v2/auth/auth-user`, `/token transfer`, `/block batch`, … */
  target: string;
  api: 'auth' | 'did' | 'rpc';
  /**
   * `status:error` of the OAuth-style errors the endpoint documents (`{ error, error_description }`,
   * the OpenID4VP endpoints); absent: its errors are this API's REST errors.
   */
  oauthErrors?: ReadonlySet<string>;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: string | Buffer;
  headers: Record<string, string>;
}

/** Credentials that let fuzzed requests get past authentication into the services' logic. */
export interface FuzzCredentials {
  jwt: string;
  basic: string;
}

/** A JSON-RPC method as rpc.discover describes it. */
export interface RpcMethodDoc {
  path: string;
  name: string;
  byPosition: boolean;
  params: Array<{ name: string; schema: JsonSchema; required?: boolean }>;
}

const ONE_MIB = 1024 * 1024;

/** Raw bodies: what no JSON serializer would send. */
function rawBody(valid: string): fc.Arbitrary<{ body: string | Buffer; type?: string }> {
  return fc.oneof(
    fc.nat({ max: Math.max(0, valid.length - 1) }).map((n) => ({ body: valid.slice(0, n) })),
    fc.string({ unit: 'binary', maxLength: 200 }).map((s) => ({ body: s })),
    fc
      .constantFrom(
        '',
        '{',
        '}',
        '[',
        ']',
        'null',
        '0',
        '"x"',
        '{"a":}',
        '{"a":1,}',
        "{'a':1}",
        'NaN',
        '{"a":1}{"b":2}',
        '\ufeff{}',
        '{"a":"\\ud800"}',
        '{"a":1e999999}',
      )
      .map((body) => ({ body })),
    fc.integer({ min: 1_000, max: 200_000 }).map((d) => ({ body: '['.repeat(d) + ']'.repeat(d) })),
    fc
      .integer({ min: 1_000, max: 100_000 })
      .map((d) => ({ body: '{"a":'.repeat(d) + '1' + '}'.repeat(d) })),
    fc.constant({ body: `{"pad":"${'x'.repeat(ONE_MIB + 10)}"}` }),
    fc.constant({ body: `{"pad":"${'x'.repeat(ONE_MIB - 20)}"}` }),
    fc.constant({ body: Buffer.from(valid, 'latin1'), type: 'application/json; charset=latin1' }),
    fc.constant({ body: Buffer.from(valid, 'utf16le'), type: 'application/json; charset=utf-16' }),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'application/xml',
      )
      .map((type) => ({ body: valid, type })),
    fc.constant({ body: Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]) }),
  );
}

/** REST cases for every endpoint of REST_ENDPOINTS, from its zod request schema. */
export function restCases(creds: FuzzCredentials): fc.Arbitrary<FuzzCase> {
  const perEndpoint = REST_ENDPOINTS.map((endpoint) => {
    const api = endpoint.tag;
    const oauthErrors = endpoint.oauthErrors
      ? new Set(endpoint.oauthErrors.map((e) => `${e.status}:${e.error}`))
      : undefined;
    const target = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
    const schema = endpoint.request
      ? (z.toJSONSchema(endpoint.request, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
      : undefined;
    const valid = schemaArbitrary(schema ?? { type: 'object' });
    const value = fc.oneof(
      { weight: 3, arbitrary: valid },
      { weight: 4, arbitrary: valid.chain((v) => mutate(v)) },
      { weight: 1, arbitrary: hostileValue },
    );
    const auth = fc.constantFrom<Record<string, string>>(
      {},
      { authorization: `Bearer ${creds.jwt}` },
      { authorization: creds.basic },
      { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.' },
      { authorization: 'Basic ' + Buffer.from('res-shop:wrong').toString('base64') },
      { authorization: 'Basic %%%' },
    );
    const json = fc.tuple(value, auth).map(([v, headers]): FuzzCase => ({
      target,
      api,
      oauthErrors,
      method: 'POST',
      path: endpoint.path,
      body: JSON.stringify(v) ?? 'null',
      headers: { 'content-type': 'application/json', ...headers },
    }));
    const raw = fc
      .tuple(rawBody(JSON.stringify({ requestId: 'http://shop.example/x' })), auth)
      .map(([r, headers]): FuzzCase => ({
        target,
        api,
        oauthErrors,
        method: 'POST',
        path: endpoint.path,
        body: r.body,
        headers: { 'content-type': r.type ?? 'application/json', ...headers },
      }));
    const get = fc
      .constantFrom('', '?a=1', '?__proto__[x]=1', `?${'q'.repeat(4000)}=1`)
      .map((query): FuzzCase => ({
        target,
        api,
        oauthErrors,
        method: 'GET',
        path: endpoint.path + query,
        headers: {},
      }));
    return endpoint.method === 'get'
      ? fc.oneof({ weight: 3, arbitrary: get }, { weight: 1, arbitrary: json })
      : fc.oneof(
          { weight: 4, arbitrary: json },
          { weight: 2, arbitrary: raw },
          { weight: 1, arbitrary: get },
        );
  });
  return fc.oneof(...perEndpoint);
}

function paramsArbitrary(doc: RpcMethodDoc): fc.Arbitrary<unknown> {
  if (doc.byPosition) {
    return fc.tuple(...doc.params.map((p) => schemaArbitrary(p.schema)));
  }
  const properties = Object.fromEntries(doc.params.map((p) => [p.name, p.schema]));
  return schemaArbitrary({
    type: 'object',
    properties,
    required: doc.params.filter((p) => p.required).map((p) => p.name),
  });
}

/** One JSON-RPC request object for `doc`, mostly well-formed, often with broken params or envelope. */
function rpcRequest(doc: RpcMethodDoc): fc.Arbitrary<unknown> {
  const valid = paramsArbitrary(doc);
  const params = fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 4, arbitrary: valid.chain((v) => mutate(v)) },
    { weight: 1, arbitrary: hostileValue },
  );
  const id = fc.oneof(
    { weight: 6, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 'id-x', 1.5, {}, [], true, 2 ** 60) },
  );
  const good = fc
    .tuple(params, id)
    .map(([p, i]) => ({ jsonrpc: '2.0', id: i, method: doc.name, params: p }));
  const envelope = fc.tuple(params, id, hostileValue).chain(([p, i, h]) =>
    fc.constantFrom<unknown>(
      { jsonrpc: '1.0', id: i, method: doc.name, params: p },
      { jsonrpc: '2.0', id: i, method: h, params: p },
      { jsonrpc: '2.0', id: i, params: p },
      { jsonrpc: '2.0', method: doc.name, params: p }, // a notification
      { jsonrpc: '2.0', id: i, method: doc.name, params: 'not-params' },
      { ...protoObject('__proto__'), jsonrpc: '2.0', id: i, method: doc.name, params: p },
      { jsonrpc: '2.0', id: i, method: `${doc.name}\u0000`, params: p },
      { jsonrpc: '2.0', id: i, method: 'constructor', params: p },
      { jsonrpc: '2.0', id: i, method: '__proto__', params: p },
      { jsonrpc: '2.0', id: i, method: 'rpc.other', params: p },
      h,
    ),
  );
  return fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: envelope });
}

/** JSON-RPC cases for every method of every path, batches and batch bombs included. */
export function rpcCases(methods: RpcMethodDoc[]): fc.Arbitrary<FuzzCase> {
  const paths = [...new Set(methods.map((m) => m.path))];
  const single = methods.map((doc) =>
    rpcRequest(doc).map((request): FuzzCase => ({
      target: `${doc.path} ${doc.name}`,
      api: 'rpc',
      method: 'POST',
      path: doc.path,
      body: JSON.stringify(request) ?? 'null',
      headers: { 'content-type': 'application/json' },
    })),
  );
  const perPath = paths.map((path) => {
    const own = methods.filter((m) => m.path === path);
    const anyRequest = fc.oneof(...own.map((doc) => rpcRequest(doc)));
    const discover = { jsonrpc: '2.0', id: 1, method: 'rpc.discover' };
    const bombs = fc.oneof(
      fc.array(anyRequest, { minLength: 1, maxLength: 100 }).map((b) => JSON.stringify(b)),
      fc
        .integer({ min: 90, max: 100 })
        .map((n) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ ...discover, id: i })))),
      fc.constant(JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ ...discover, id: i })))),
      fc.constant(JSON.stringify(Array.from({ length: 100 }, () => [discover]))),
      fc.constant(
        JSON.stringify(Array.from({ length: 5_000 }, (_, i) => ({ ...discover, id: i }))),
      ),
      fc.constant('[]'),
      rawBody(JSON.stringify(discover)).map((r) => r.body),
    );
    return bombs.map((body): FuzzCase => ({
      target: `${path} batch/raw`,
      api: 'rpc',
      method: 'POST',
      path,
      body,
      headers: { 'content-type': 'application/json' },
    }));
  });
  const otherVerbs = fc
    .tuple(
      fc.constantFrom(...paths),
      fc.constantFrom<'GET' | 'PUT' | 'DELETE'>('GET', 'PUT', 'DELETE'),
    )
    .map(([path, method]): FuzzCase => ({
      target: `${path} ${method}`,
      api: 'rpc',
      method,
      path,
      headers: {},
    }));
  return fc.oneof(
    { weight: 10, arbitrary: fc.oneof(...single) },
    { weight: 2, arbitrary: fc.oneof(...perPath) },
    { weight: 1, arbitrary: otherVerbs },
  );
}
