import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { z } from 'zod';
import { HttpService } from '@itp/service-kit';
import { NotFoundError } from '@itp/errors';
import { json as jsonBodyParser } from 'express';
import { jsonRpcRouter } from './json-rpc-router.js';
import { handOverBody, readRawBody } from './read-body.js';
import { defineMethod } from './method.js';
import { RpcServer } from './rpc-server.js';

type Json = Record<string, unknown>;

const LIMIT = 1024;
const lines: Json[] = [];
const logger = pino(
  { level: 'debug' },
  { write: (line: string) => void lines.push(JSON.parse(line) as Json) },
);
const seen: string[] = [];

const tokenServer = new RpcServer({
  info: { title: 'Token API', version: '1.0.0' },
  logger,
  methods: [
    defineMethod({
      name: 'whoami',
      summary: 'Returns the request id',
      paramsStyle: 'object',
      params: z.object({}),
      result: z.string(),
      handler: async (_params, ctx) => ctx.requestId,
    }),
    defineMethod({
      name: 'whereami',
      summary: 'Returns the client address the transport saw',
      paramsStyle: 'object',
      params: z.object({}),
      result: z.string(),
      handler: async (_params, ctx) => ctx.clientIp ?? 'unknown',
    }),
    defineMethod({
      name: 'echo',
      summary: 'Echoes',
      paramsStyle: 'object',
      params: z.object({ text: z.string() }),
      result: z.string(),
      handler: async ({ text }) => {
        seen.push(text);
        return text;
      },
    }),
    defineMethod({
      name: 'lookup',
      summary: 'Service error',
      paramsStyle: 'object',
      params: z.object({}),
      result: z.string(),
      handler: async () => {
        throw new NotFoundError('unknown address');
      },
    }),
    defineMethod({
      name: 'crash',
      summary: 'Internal error',
      paramsStyle: 'object',
      params: z.object({}),
      result: z.string(),
      handler: async () => {
        throw new Error('boom');
      },
    }),
  ],
});

const erc20Server = new RpcServer({
  info: { title: 'ERC-20 API', version: '1.0.0' },
  logger,
  methods: [
    defineMethod({
      name: 'name',
      summary: 'Token name',
      paramsStyle: 'object',
      params: z.object({ contract: z.string() }),
      result: z.string(),
      handler: async () => 'Test Token',
    }),
  ],
});

const service = new HttpService({
  name: 'jsonrpc-test',
  config: { HOST: '127.0.0.1', PORT: 0, SHUTDOWN_TIMEOUT_MS: 1000, READINESS_TIMEOUT_MS: 1000 },
  logger,
});
service.app.use('/token', jsonRpcRouter(tokenServer, { bodyLimitBytes: LIMIT }));
service.app.use('/token/erc20', jsonRpcRouter(erc20Server, { bodyLimitBytes: LIMIT }));
// A body parser in front of the router is a wiring bug: it must fail loudly, not hang.
service.app.use('/parsed', jsonBodyParser(), jsonRpcRouter(erc20Server, { bodyLimitBytes: LIMIT }));
// A raw node:http route that reads the body itself, then leaves the request to the router.
service.app.use('/handed', jsonRpcRouter(tokenServer, { bodyLimitBytes: LIMIT }));
service.setRawRoutes((req, res) => {
  if (req.method !== 'POST' || req.url !== '/handed') return false;
  void readRawBody(req, LIMIT).then((raw) => {
    handOverBody(req, raw);
    service.app(req, res);
  });
  return true;
});

let baseUrl = '';

beforeAll(async () => {
  baseUrl = (await service.listen()).url;
});

afterAll(async () => {
  await service.close();
});

async function post(
  path: string,
  body: string | Uint8Array | ReadableStream<Uint8Array>,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const init = { method: 'POST', headers, body, duplex: 'half' } as RequestInit;
  const res = await fetch(baseUrl + path, init);
  const text = await res.text();
  return { res, text, json: text ? (JSON.parse(text) as Json | Json[]) : undefined };
}

function rpc(method: string, params?: unknown, id: unknown = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params, id });
}

describe('jsonRpcRouter over HTTP', () => {
  it('answers a call with 200 application/json and the envelope', async () => {
    const { res, json } = await post('/token', rpc('echo', { text: 'hi' }, 'c1'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json).toEqual({
      jsonrpc: '2.0',
      id: 'c1',
      result: { resultCode: '200', resultMessage: 'Success', resultData: 'hi' },
    });
  });

  it('passes the client address (express req.ip) to handlers as ctx.clientIp', async () => {
    const whereami = async (headers: Record<string, string> = {}) => {
      const { json } = await post('/token', rpc('whereami'), {
        'content-type': 'application/json',
        ...headers,
      });
      return (json as { result: { resultData: string } }).result.resultData;
    };
    expect(await whereami()).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    // Without `trust proxy` the caller cannot choose its address.
    expect(await whereami({ 'x-forwarded-for': '203.0.113.7' })).toMatch(/127\.0\.0\.1$/);
    service.app.set('trust proxy', 'loopback');
    try {
      expect(await whereami({ 'x-forwarded-for': '203.0.113.7' })).toBe('203.0.113.7');
    } finally {
      service.app.set('trust proxy', false);
    }
  });

  it('reads the body whatever the Content-Type, or without one', async () => {
    const plain = await post('/token', rpc('echo', { text: 'plain' }), {
      'content-type': 'text/plain',
    });
    expect(plain.json).toMatchObject({ result: { resultData: 'plain' } });
    const none = await post('/token', new TextEncoder().encode(rpc('echo', { text: 'none' })), {});
    expect(none.json).toMatchObject({ result: { resultData: 'none' } });
  });

  it('answers a service error with HTTP 200 and resultCode', async () => {
    const { res, json } = await post('/token', rpc('lookup'));
    expect(res.status).toBe(200);
    expect(json).toMatchObject({
      result: { resultCode: '404', resultMessage: 'unknown address', resultData: '' },
    });
  });

  it('answers a notification with 204 and no body, after running it', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'echo', params: { text: 'note-1' } });
    const { res, text } = await post('/token', body);
    expect(res.status).toBe(204);
    expect(text).toBe('');
    expect(seen).toContain('note-1');
  });

  it('answers a batch with an array in request order', async () => {
    const body = `[${rpc('echo', { text: 'a' }, 1)},${rpc('nope', undefined, 2)}]`;
    const { res, json } = await post('/token', body);
    expect(res.status).toBe(200);
    expect(json).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        result: { resultCode: '200', resultMessage: 'Success', resultData: 'a' },
      },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32601, message: 'Method not found', msg: 'Method not found' },
      },
    ]);
  });

  it('answers malformed JSON with 200 and -32700', async () => {
    const { res, json } = await post('/token', '{"jsonrpc":');
    expect(res.status).toBe(200);
    expect(json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error', msg: 'Parse error' },
    });
  });

  it('answers invalid UTF-8 with -32702 and a foreign charset with -32701', async () => {
    const bad = new Uint8Array([...Buffer.from('{"a":"'), 0xff, 0xfe, ...Buffer.from('"}')]);
    const invalid = await post('/token', bad);
    expect(invalid.res.status).toBe(200);
    expect(invalid.json).toMatchObject({ id: null, error: { code: -32702 } });
    const latin1 = await post('/token', rpc('echo', { text: 'x' }), {
      'content-type': 'application/json; charset=ISO-8859-1',
    });
    expect(latin1.json).toMatchObject({ id: null, error: { code: -32701 } });
    const utf8 = await post('/token', rpc('echo', { text: 'é' }), {
      'content-type': 'application/json; charset=UTF-8',
    });
    expect(utf8.json).toMatchObject({ result: { resultData: 'é' } });
  });

  it('answers a compressed body with -32701', async () => {
    const { res, json } = await post(
      '/token',
      new Uint8Array(gzipSync(rpc('echo', { text: 'z' }))),
      {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
    );
    expect(res.status).toBe(200);
    expect(json).toMatchObject({
      id: null,
      error: { code: -32701, msg: 'Parse error: unsupported encoding' },
    });
  });

  it('answers a body over the limit with 413 and a -32600 JSON-RPC error body', async () => {
    const big = rpc('echo', { text: 'x'.repeat(LIMIT * 4) });
    const declared = await post('/token', big);
    expect(declared.res.status).toBe(413);
    expect(declared.res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(declared.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request',
        msg: 'Invalid Request',
        data: { reason: `the body is larger than ${LIMIT} bytes` },
      },
    });

    // Streamed in chunks without a Content-Length: found while reading.
    const chunk = new TextEncoder().encode('x'.repeat(512));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await post('/token', stream);
    expect(streamed.res.status).toBe(413);
    expect(streamed.json).toMatchObject({ error: { code: -32600 } });

    // The service keeps answering afterwards.
    expect((await post('/token', rpc('echo', { text: 'after' }))).json).toMatchObject({
      result: { resultData: 'after' },
    });
  });

  it('answers other HTTP methods on the path with 405 JSON and Allow: POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(`${baseUrl}/token`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
  });

  it("uses the service's request id (x-request-id) and request logger", async () => {
    const { res, json } = await post('/token', rpc('whoami'), {
      'content-type': 'application/json',
      'x-request-id': 'test-req-42',
    });
    expect(res.headers.get('x-request-id')).toBe('test-req-42');
    expect(json).toMatchObject({ result: { resultData: 'test-req-42' } });

    const failed = await post('/token', rpc('crash'), {
      'content-type': 'application/json',
      'x-request-id': 'test-req-crash',
    });
    expect(failed.json).toMatchObject({ error: { code: -32603, message: 'Internal error' } });
    expect(failed.text).not.toContain('boom');
    const logged = lines.find(
      (line) => line['msg'] === 'JSON-RPC handler failed' && line['requestId'] === 'test-req-crash',
    );
    // req.log of pino-http carries the request binding.
    expect(logged).toMatchObject({ req: { id: 'test-req-crash' }, method: 'crash' });
  });

  it('serves each mounted API on its own path, with a trailing slash too', async () => {
    const discovered = await post('/token/erc20', rpc('rpc.discover'));
    expect(discovered.json).toMatchObject({ result: { info: { title: 'ERC-20 API' } } });
    const named = await post('/token/erc20/', rpc('name', { contract: '0x1' }));
    expect(named.json).toMatchObject({ result: { resultData: 'Test Token' } });
    const token = await post('/token/', rpc('rpc.discover'));
    expect(token.json).toMatchObject({ result: { info: { title: 'Token API' } } });
  });

  it('answers from a body a raw route read and handed over (handOverBody)', async () => {
    const { res, json } = await post('/handed', rpc('echo', { text: 'handed' }));
    expect(res.status).toBe(200);
    expect(json).toMatchObject({ result: { resultData: 'handed' } });
    const chunk = new TextEncoder().encode('x'.repeat(512));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const tooLarge = await post('/handed', stream);
    expect(tooLarge.res.status).toBe(413);
    expect(tooLarge.json).toMatchObject({ error: { code: -32600 } });
  });

  it('fails with 500 (not a hang) when a body parser consumed the body first', async () => {
    const { res, json } = await post('/parsed', rpc('name', { contract: '0x1' }));
    expect(res.status).toBe(500);
    expect(json).toEqual({
      error: { code: '500', message: expect.stringMatching(/^Internal error \(request id .+\)$/) },
    });
  });
});
