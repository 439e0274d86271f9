import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { z } from 'zod';
import { ConflictError, InternalError, NotFoundError, ServiceUnavailableError } from '@itp/errors';
import { defineMethod, type RpcMethod } from './method.js';
import { InvalidParamsError, RpcError } from './rpc-errors.js';
import { RpcServer } from './rpc-server.js';

type Json = Record<string, unknown>;

function captureLogger() {
  const lines: Json[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Json) },
  );
  return { logger, lines };
}

const notified: string[] = [];

const methods: RpcMethod[] = [
  defineMethod({
    name: 'echo',
    summary: 'Echoes text',
    paramsStyle: 'object',
    params: z.object({ text: z.string().max(20) }),
    result: z.object({ text: z.string() }),
    handler: async ({ text }) => ({ text }),
  }),
  defineMethod({
    name: 'createAddress',
    summary: 'No params',
    paramsStyle: 'object',
    params: z.object({}),
    result: z.string(),
    handler: async () => 'created',
  }),
  defineMethod({
    name: 'sum',
    summary: 'Adds two numbers',
    paramsStyle: 'positional',
    params: z.tuple([z.number(), z.number()]),
    result: z.number(),
    handler: async ([a, b]) => a + b,
  }),
  defineMethod({
    name: 'getBlock',
    summary: 'Optional positional params',
    paramsStyle: 'positional',
    params: z.tuple([z.union([z.number().int(), z.literal('latest')]), z.boolean().optional()]),
    result: z.object({ block: z.string(), full: z.boolean() }),
    handler: async ([block, full]) => ({ block: String(block), full: full ?? false }),
  }),
  defineMethod({
    name: 'note',
    summary: 'Records a notification',
    paramsStyle: 'object',
    params: z.object({ tag: z.string() }),
    result: z.null(),
    handler: async ({ tag }) => {
      notified.push(tag);
      return null;
    },
  }),
  defineMethod({
    name: 'nothing',
    summary: 'Returns undefined',
    paramsStyle: 'object',
    params: z.object({}),
    result: z.null(),
    handler: async () => undefined,
  }),
  defineMethod({
    name: 'balance',
    summary: 'Returns bigints',
    paramsStyle: 'object',
    params: z.object({}),
    result: z.object({ wei: z.bigint(), list: z.array(z.bigint()) }),
    handler: async () => ({ wei: 10n ** 24n, list: [1n, -2n] }),
  }),
  defineMethod({
    name: 'transfer',
    summary: 'A transaction',
    paramsStyle: 'object',
    params: z.object({ to: z.string() }),
    result: z.string(),
    kind: 'transaction',
    handler: async ({ to }) => ({ transactionId: '0xabc', resultData: to }),
  }),
  defineMethod({
    name: 'brokenTransaction',
    summary: 'A transaction handler that forgets the TransactionOutcome',
    paramsStyle: 'object',
    params: z.object({}),
    result: z.string(),
    kind: 'transaction',
    handler: async () => '0xabc',
  }),
  defineMethod({
    name: 'lookup',
    summary: 'Throws service errors',
    paramsStyle: 'object',
    params: z.object({ what: z.enum(['missing', 'used', 'chain', 'database']) }),
    result: z.string(),
    handler: async ({ what }) => {
      if (what === 'missing') throw new NotFoundError('unknown address');
      if (what === 'used') throw new ConflictError('tempKey already used');
      if (what === 'database') {
        // What @itp/stores throws when PostgreSQL or Redis is unreachable.
        throw new ServiceUnavailableError(
          'The database is temporarily unavailable; try again later',
          { cause: new Error('connect ECONNREFUSED 10.0.0.5:5432') },
        );
      }
      throw new InternalError('chain unavailable', { cause: new Error('ECONNREFUSED') });
    },
  }),
  defineMethod({
    name: 'crash',
    summary: 'Throws a plain error',
    paramsStyle: 'object',
    params: z.object({}),
    result: z.string(),
    handler: async () => {
      throw new Error('pg: password authentication failed for user "secret-user"');
    },
  }),
  defineMethod({
    name: 'protocolFault',
    summary: 'Throws RpcErrors',
    paramsStyle: 'object',
    params: z.object({ kind: z.enum(['app', 'params']) }),
    result: z.string(),
    handler: async ({ kind }) => {
      if (kind === 'app') throw new RpcError(-32500, 'Application error', { hint: 'retry later' });
      throw new InvalidParamsError('from and to must differ');
    },
  }),
  defineMethod({
    name: 'circular',
    summary: 'Returns something JSON cannot hold',
    paramsStyle: 'object',
    params: z.object({}),
    result: z.unknown(),
    handler: async () => {
      const value: Json = {};
      value['self'] = value;
      return value;
    },
  }),
  defineMethod({
    name: 'whoami',
    summary: 'Returns the request id',
    paramsStyle: 'object',
    params: z.object({}),
    result: z.string(),
    handler: async (_params, ctx) => {
      ctx.logger.info({ probe: true }, 'whoami');
      return ctx.requestId;
    },
  }),
  defineMethod({
    name: 'checkAsync',
    summary: 'Params with an async refinement',
    paramsStyle: 'object',
    params: z.object({ n: z.number() }).refine(async ({ n }) => n % 2 === 0, 'n must be even'),
    result: z.number(),
    handler: async ({ n }) => n,
  }),
];

function makeServer(maxBatchSize?: number) {
  const { logger, lines } = captureLogger();
  const server = new RpcServer({
    info: { title: 'Test RPC', version: '1.0.0' },
    methods,
    logger,
    maxBatchSize,
  });
  return { server, lines };
}

const { server, lines } = makeServer();

async function call(body: string | Buffer | unknown, charset?: string) {
  const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const answer = await server.handle(raw, { requestId: 'req-1', charset });
  return {
    status: answer.status,
    text: answer.body,
    json: answer.body === undefined ? undefined : (JSON.parse(answer.body) as unknown),
  };
}

function rpc(method: string, params?: unknown, id: unknown = 1): Json {
  return { ...notification(method, params), id };
}

/** A request without an `id` member. */
function notification(method: string, params?: unknown): Json {
  const request: Json = { jsonrpc: '2.0', method };
  if (params !== undefined) request['params'] = params;
  return request;
}

function protocolError(id: unknown, code: number, message: string, data?: unknown): Json {
  const error: Json = { code, message, msg: message };
  if (data !== undefined) error['data'] = data;
  return { jsonrpc: '2.0', id, error };
}

describe('RpcServer: success envelope', () => {
  it('wraps resultData in resultCode/resultMessage', async () => {
    expect(await call(rpc('echo', { text: 'hi' }, 'a-1'))).toEqual({
      status: 200,
      text: expect.any(String),
      json: {
        jsonrpc: '2.0',
        id: 'a-1',
        result: { resultCode: '200', resultMessage: 'Success', resultData: { text: 'hi' } },
      },
    });
  });

  it('puts TransactionID beside resultData for transaction methods', async () => {
    const { json } = await call(rpc('transfer', { to: '0xdef' }, 2));
    expect(json).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: {
        resultCode: '200',
        resultMessage: 'Success',
        TransactionID: '0xabc',
        resultData: '0xdef',
      },
    });
  });

  it('sends null resultData when a handler returns undefined', async () => {
    const { json } = await call(rpc('nothing'));
    expect(json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { resultCode: '200', resultMessage: 'Success', resultData: null },
    });
  });

  it('writes bigints as decimal strings', async () => {
    const { json } = await call(rpc('balance'));
    expect((json as { result: Json }).result['resultData']).toEqual({
      wei: '1000000000000000000000000',
      list: ['1', '-2'],
    });
  });

  it('echoes string, integer, zero, negative and null ids (null is answered, not a notification)', async () => {
    for (const id of ['x', 42, 0, -7, null]) {
      const answer = await call(rpc('echo', { text: 'id' }, id));
      expect(answer.status).toBe(200);
      expect((answer.json as Json)['id']).toBe(id);
      expect((answer.json as Json)['result']).toBeDefined();
    }
  });

  it('ignores members the protocol does not define', async () => {
    const { json } = await call({ ...rpc('echo', { text: 'x' }, 3), extra: 1, meta: { a: 1 } });
    expect((json as Json)['result']).toMatchObject({ resultCode: '200' });
  });

  it('gives the handler the request id and a logger', async () => {
    const { json } = await call(rpc('whoami'));
    expect((json as { result: Json }).result['resultData']).toBe('req-1');
    expect(lines.some((line) => line['probe'] === true && line['reqId'] === 'req-1')).toBe(true);
  });
});

describe('RpcServer: notifications', () => {
  it('runs a notification and answers 204 without a body', async () => {
    const answer = await server.handle(JSON.stringify(notification('note', { tag: 'n1' })), {
      requestId: 'r',
    });
    expect(answer).toEqual({ status: 204 });
    expect(notified).toContain('n1');
  });

  it('answers nothing for a notification to an unknown method or with bad params', async () => {
    expect((await call(notification('nope'))).status).toBe(204);
    expect((await call(notification('echo', { text: 1 }))).status).toBe(204);
  });
});

describe('RpcServer: parse and encoding errors', () => {
  it('answers unparsable JSON with -32700 and id null, without quoting the body', async () => {
    const answer = await call('{"jsonrpc":"2.0","method":"echo","params":{"text":"secret-value"');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(protocolError(null, -32700, 'Parse error'));
    expect(answer.text).not.toContain('secret-value');
    expect((await call('')).json).toEqual(protocolError(null, -32700, 'Parse error'));
  });

  it('answers invalid UTF-8 bytes with -32702', async () => {
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","method":"echo","params":{"text":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"},"id":1}'),
    ]);
    expect((await call(body)).json).toEqual(
      protocolError(null, -32702, 'Parse error: invalid character for encoding'),
    );
  });

  it('answers other encodings with -32701', async () => {
    const utf16 = Buffer.from(JSON.stringify(rpc('echo', { text: 'x' })), 'utf16le');
    expect((await call(utf16)).json).toEqual(
      protocolError(null, -32701, 'Parse error: unsupported encoding'),
    );
    expect((await call(rpc('echo', { text: 'x' }), 'iso-8859-1')).json).toEqual(
      protocolError(null, -32701, 'Parse error: unsupported encoding'),
    );
    expect((await call(rpc('echo', { text: 'x' }), 'utf-8')).json).toMatchObject({ id: 1 });
  });

  it('decodes UTF-8 bodies, multi-byte characters included', async () => {
    const { json } = await call(Buffer.from(JSON.stringify(rpc('echo', { text: 'héllo €' }))));
    expect((json as { result: Json }).result['resultData']).toEqual({ text: 'héllo €' });
  });
});

describe('RpcServer: invalid requests', () => {
  it.each([
    ['jsonrpc 1.0', { jsonrpc: '1.0', method: 'echo', id: 9 }, 9],
    ['no jsonrpc member', { method: 'echo', id: 'k' }, 'k'],
    ['a numeric method', { jsonrpc: '2.0', method: 5, id: 9 }, 9],
    ['string params', { jsonrpc: '2.0', method: 'echo', params: 'x', id: 9 }, 9],
    ['null params', { jsonrpc: '2.0', method: 'echo', params: null }, null],
    ['an object id', { jsonrpc: '2.0', method: 'echo', id: { a: 1 } }, null],
    ['a boolean id', { jsonrpc: '2.0', method: 'echo', id: false }, null],
    ['a fractional id', { jsonrpc: '2.0', method: 'echo', id: 2.5 }, null],
    ['a bare number', 1, null],
    ['a string', '"hello"', null],
    ['null', null, null],
  ])('answers %s with -32600', async (_name, request, id) => {
    const answer = await call(request);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(
      protocolError(id, -32600, 'Invalid Request', { reason: expect.any(String) }),
    );
  });
});

describe('RpcServer: batches', () => {
  it('answers an empty batch with a single -32600', async () => {
    expect((await call([])).json).toEqual(
      protocolError(null, -32600, 'Invalid Request', { reason: 'a batch must not be empty' }),
    );
  });

  it('answers a batch of invalid items with an array of -32600', async () => {
    const { json } = await call([1, 2]);
    expect(json).toEqual([
      protocolError(null, -32600, 'Invalid Request', { reason: expect.any(String) }),
      protocolError(null, -32600, 'Invalid Request', { reason: expect.any(String) }),
    ]);
  });

  it('answers the calls of a mixed batch in order and skips the notifications', async () => {
    const { status, json } = await call([
      rpc('sum', [1, 2], 'first'),
      notification('note', { tag: 'in-batch' }),
      { foo: 'boo' },
      rpc('nope', undefined, 5),
      rpc('echo', { text: 'last' }, null),
    ]);
    expect(status).toBe(200);
    expect(json).toEqual([
      {
        jsonrpc: '2.0',
        id: 'first',
        result: { resultCode: '200', resultMessage: 'Success', resultData: 3 },
      },
      protocolError(null, -32600, 'Invalid Request', { reason: expect.any(String) }),
      protocolError(5, -32601, 'Method not found'),
      {
        jsonrpc: '2.0',
        id: null,
        result: { resultCode: '200', resultMessage: 'Success', resultData: { text: 'last' } },
      },
    ]);
    expect(notified).toContain('in-batch');
  });

  it('answers 204 for a batch of only notifications', async () => {
    const answer = await call([
      notification('note', { tag: 'b1' }),
      notification('note', { tag: 'b2' }),
    ]);
    expect(answer).toEqual({ status: 204, text: undefined, json: undefined });
    expect(notified).toEqual(expect.arrayContaining(['b1', 'b2']));
  });

  it('treats a nested batch as an invalid item', async () => {
    const { json } = await call([[rpc('sum', [1, 1])]]);
    expect(json).toEqual([
      protocolError(null, -32600, 'Invalid Request', { reason: expect.any(String) }),
    ]);
  });

  it('refuses params nested 20,000 levels deep with one -32600, before any handler or validator', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const answer = await call(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":${deep}}}`);
    expect(answer.json).toEqual(
      protocolError(null, -32600, 'Invalid Request', {
        reason: 'the JSON nests deeper than 64 levels',
      }),
    );
  });

  it('refuses a batch over the configured size with one -32600', async () => {
    const small = makeServer(3).server;
    const batch = (n: number) =>
      JSON.stringify(Array.from({ length: n }, (_, i) => rpc('sum', [i, 1], i)));
    const over = await small.handle(batch(4), { requestId: 'r' });
    expect(JSON.parse(over.body ?? '')).toEqual(
      protocolError(null, -32600, 'Invalid Request', {
        reason: 'a batch holds at most 3 requests',
      }),
    );
    const within = await small.handle(batch(3), { requestId: 'r' });
    expect(JSON.parse(within.body ?? '')).toHaveLength(3);
  });

  it('caps the total size of a batch answer: answers over it become -32600 with their id', async () => {
    // A method with a 20 KB answer: three of them do not fit under the cap, two do.
    const withBig = [
      ...methods,
      defineMethod({
        name: 'big',
        summary: 'A large answer',
        paramsStyle: 'object',
        params: z.object({}),
        result: z.object({ text: z.string() }),
        handler: async () => ({ text: 'x'.repeat(20_000) }),
      }),
    ];
    const plain = new RpcServer({
      info: { title: 'Test RPC', version: '1.0.0' },
      methods: withBig,
      logger: captureLogger().logger,
    });
    const bigCalls = (n: number) =>
      JSON.stringify(Array.from({ length: n }, (_, i) => rpc('big', {}, i)));
    const one = await plain.handle(bigCalls(1), { requestId: 'r' });
    const size = Buffer.byteLength(one.body ?? '');
    const capped = new RpcServer({
      info: { title: 'Test RPC', version: '1.0.0' },
      methods: withBig,
      logger: captureLogger().logger,
      maxBatchAnswerBytes: size * 2 + 1000,
    });
    const answer = await capped.handle(bigCalls(5), { requestId: 'r' });
    expect(Buffer.byteLength(answer.body ?? '')).toBeLessThanOrEqual(size * 2 + 1000);
    const answers = JSON.parse(answer.body ?? '') as Array<{ id: number; result?: unknown }>;
    expect(answers.map((a) => a.id)).toEqual([0, 1, 2, 3, 4]);
    expect(answers[0]?.result).toMatchObject({ resultData: { text: expect.any(String) } });
    expect(answers[1]?.result).toMatchObject({ resultData: { text: expect.any(String) } });
    for (const refused of answers.slice(2)) {
      expect(refused).toEqual(
        protocolError(refused.id, -32600, 'Invalid Request', {
          reason: `the answers of this batch would exceed ${size * 2 + 1000} bytes: send this request on its own or in a smaller batch`,
        }),
      );
    }
    // Small answers after a refused big one still fit and are kept.
    const mixed = JSON.stringify([
      rpc('big', {}, 'a'),
      rpc('big', {}, 'b'),
      rpc('big', {}, 'c'),
      rpc('sum', [1, 2], 'd'),
    ]);
    const kept = JSON.parse((await capped.handle(mixed, { requestId: 'r' })).body ?? '') as Array<{
      id: string;
      result?: unknown;
      error?: { code: number };
    }>;
    expect(kept[2]?.error?.code).toBe(-32600);
    expect(kept[3]?.id).toBe('d');
    expect(kept[3]?.error).toBeUndefined();
    expect(kept[3]?.result).toBeDefined();
  });

  it('answers rpc.discover once per batch: the others are -32600, the batch stays small', async () => {
    const batch = JSON.stringify(
      Array.from({ length: 100 }, (_, i) => rpc('rpc.discover', undefined, i)),
    );
    const one = await server.handle(JSON.stringify(rpc('rpc.discover', undefined, 0)), {
      requestId: 'r',
    });
    const answer = await server.handle(batch, { requestId: 'r' });
    const answers = JSON.parse(answer.body ?? '') as Array<{ id: number; result?: unknown }>;
    expect(answers).toHaveLength(100);
    expect(answers[0]?.result).toEqual(JSON.parse(one.body ?? '').result);
    for (const refused of answers.slice(1)) {
      expect(refused).toEqual(
        protocolError(refused.id, -32600, 'Invalid Request', {
          reason: 'rpc.discover is answered once per batch',
        }),
      );
    }
    expect(Buffer.byteLength(answer.body ?? '')).toBeLessThan(
      Buffer.byteLength(one.body ?? '') + 100 * 200,
    );
  });

  it('refuses a cap that is not a positive integer', () => {
    const build = (maxBatchAnswerBytes: number) =>
      new RpcServer({
        info: { title: 'Test RPC', version: '1.0.0' },
        methods,
        logger: captureLogger().logger,
        maxBatchAnswerBytes,
      });
    expect(() => build(0)).toThrow(/maxBatchAnswerBytes/);
    expect(() => build(1.5)).toThrow(/maxBatchAnswerBytes/);
  });
});

describe('RpcServer: methods', () => {
  it('answers an unknown method with -32601', async () => {
    expect((await call(rpc('nope'))).json).toEqual(protocolError(1, -32601, 'Method not found'));
  });

  it('does not find inherited object members', async () => {
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      expect((await call(rpc(name))).json).toEqual(protocolError(1, -32601, 'Method not found'));
    }
  });

  it('reserves rpc.* names, except rpc.discover which returns the OpenRPC document', async () => {
    expect((await call(rpc('rpc.describe'))).json).toEqual(
      protocolError(1, -32601, 'Method not found'),
    );
    const { json } = await call(rpc('rpc.discover', undefined, 'd'));
    expect(json).toEqual({ jsonrpc: '2.0', id: 'd', result: server.openRpcDocument() });
    expect((json as { result: Json }).result['openrpc']).toBe('1.2.6');
    expect((await call(notification('rpc.discover'))).status).toBe(204);
  });

  it('refuses method lists with reserved or duplicate names', () => {
    const { logger } = captureLogger();
    const info = { title: 't', version: '1' };
    const [echo] = methods;
    if (!echo) throw new Error('fixture missing');
    expect(() => new RpcServer({ info, logger, methods: [{ ...echo, name: 'rpc.x' }] })).toThrow(
      /reserved/,
    );
    expect(() => new RpcServer({ info, logger, methods: [echo, echo] })).toThrow(/twice/);
  });
});

describe('RpcServer: params', () => {
  it("takes 'object' params as an object, a one-object array, or nothing", async () => {
    expect((await call(rpc('echo', [{ text: 'arr' }]))).json).toMatchObject({
      result: { resultData: { text: 'arr' } },
    });
    expect((await call(rpc('createAddress'))).json).toMatchObject({
      result: { resultData: 'created' },
    });
    expect((await call(rpc('createAddress', []))).json).toMatchObject({
      result: { resultData: 'created' },
    });
  });

  it("refuses 'object' params in other shapes with -32602", async () => {
    const { json } = await call(rpc('echo', [{ text: 'a' }, { text: 'b' }]));
    expect(json).toEqual(
      protocolError(1, -32602, 'Invalid params', {
        issues: [{ path: [], message: 'params must be an object, or an array holding one object' }],
      }),
    );
  });

  it("takes 'positional' params as an array; omitted means []", async () => {
    expect((await call(rpc('getBlock', ['latest']))).json).toMatchObject({
      result: { resultData: { block: 'latest', full: false } },
    });
    expect((await call(rpc('getBlock', [12, true]))).json).toMatchObject({
      result: { resultData: { block: '12', full: true } },
    });
    const omitted = await call(rpc('getBlock'));
    expect(omitted.json).toMatchObject({ error: { code: -32602 } });
    const asObject = await call(rpc('sum', { a: 1 }));
    expect(asObject.json).toEqual(
      protocolError(1, -32602, 'Invalid params', {
        issues: [{ path: [], message: 'params must be an array' }],
      }),
    );
  });

  it('reports schema failures as -32602 issues with path and message, never the values', async () => {
    const answer = await call(rpc('echo', { text: 'this-secret-is-far-too-long-to-pass' }));
    expect(answer.json).toEqual(
      protocolError(1, -32602, 'Invalid params', {
        issues: [{ path: ['text'], message: expect.any(String) }],
      }),
    );
    expect(answer.text).not.toContain('this-secret-is-far-too-long-to-pass');
    const tuple = await call(rpc('sum', [1, 'two']));
    expect(tuple.json).toEqual(
      protocolError(1, -32602, 'Invalid params', {
        issues: [{ path: [1], message: expect.any(String) }],
      }),
    );
  });

  it('runs async refinements', async () => {
    expect((await call(rpc('checkAsync', { n: 4 }))).json).toMatchObject({
      result: { resultData: 4 },
    });
    expect((await call(rpc('checkAsync', { n: 3 }))).json).toEqual(
      protocolError(1, -32602, 'Invalid params', {
        issues: [{ path: [], message: 'n must be even' }],
      }),
    );
  });
});

describe('RpcServer: failures', () => {
  it('answers a thrown BaseError as a service error in result (HTTP 200)', async () => {
    const missing = await call(rpc('lookup', { what: 'missing' }));
    expect(missing).toMatchObject({ status: 200 });
    expect(missing.json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { resultCode: '404', resultMessage: 'unknown address', resultData: '' },
    });
    expect((await call(rpc('lookup', { what: 'used' }))).json).toMatchObject({
      result: { resultCode: '409', resultMessage: 'tempKey already used', resultData: '' },
    });
    // An internal failure (status 500, not exposed): the generic text and the request id only.
    const chain = await call(rpc('lookup', { what: 'chain' }));
    expect(chain.json).toMatchObject({
      result: {
        resultCode: '500',
        resultMessage: 'Internal error (request id req-1)',
        resultData: '',
      },
    });
    expect(chain.text).not.toContain('chain unavailable');
    expect(chain.text).not.toContain('ECONNREFUSED');
  });

  it('answers a dependency outage (ServiceUnavailableError) as resultCode "503", never -32603', async () => {
    const down = await call(rpc('lookup', { what: 'database' }));
    expect(down).toMatchObject({ status: 200 });
    expect(down.json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        resultCode: '503',
        resultMessage: 'The database is temporarily unavailable; try again later',
        resultData: '',
      },
    });
    expect(down.text).not.toContain('10.0.0.5');
  });

  it('answers a thrown RpcError as that protocol error', async () => {
    expect((await call(rpc('protocolFault', { kind: 'app' }))).json).toEqual(
      protocolError(1, -32500, 'Application error', { hint: 'retry later' }),
    );
    expect((await call(rpc('protocolFault', { kind: 'params' }))).json).toEqual(
      protocolError(1, -32602, 'from and to must differ', {
        issues: [{ path: [], message: 'from and to must differ' }],
      }),
    );
  });

  it('answers any other throw with -32603, logs it with the request id, leaks nothing', async () => {
    const answer = await server.handle(JSON.stringify(rpc('crash')), { requestId: 'crash-req' });
    expect(JSON.parse(answer.body ?? '')).toEqual(protocolError(1, -32603, 'Internal error'));
    expect(answer.body).not.toContain('secret-user');
    const logged = lines.find(
      (line) => line['msg'] === 'JSON-RPC handler failed' && line['requestId'] === 'crash-req',
    );
    expect(logged).toMatchObject({ level: 50, method: 'crash', reqId: 'crash-req' });
    expect(JSON.stringify(logged)).toContain('password authentication failed');
  });

  it('answers a result JSON cannot hold with -32603', async () => {
    expect((await call(rpc('circular'))).json).toEqual(protocolError(1, -32603, 'Internal error'));
    expect(lines.some((line) => line['msg'] === 'JSON-RPC result could not be serialised')).toBe(
      true,
    );
  });

  it('answers a transaction method that returns no TransactionOutcome with -32603', async () => {
    expect((await call(rpc('brokenTransaction'))).json).toEqual(
      protocolError(1, -32603, 'Internal error'),
    );
  });

  it('keeps one failing call of a batch from affecting the others', async () => {
    const { json } = await call([rpc('crash', undefined, 1), rpc('sum', [2, 2], 2)]);
    expect(json).toEqual([
      protocolError(1, -32603, 'Internal error'),
      {
        jsonrpc: '2.0',
        id: 2,
        result: { resultCode: '200', resultMessage: 'Success', resultData: 4 },
      },
    ]);
  });
});
