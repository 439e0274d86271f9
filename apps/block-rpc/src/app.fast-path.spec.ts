import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  createTestDatabase,
  waitFor,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import { startScriptableTestChain, type TestChain } from './testing/dev-chain.js';
import { startHarness, type Harness } from './testing/harness.js';
import { captureLogs, type LogCapture, type LogEntry } from './testing/log-capture.js';

/**
 * The node:http fast path of POST /block (http/block-fast-path.ts) against the express path:
 * two block APIs on the same anvil, PostgreSQL and Redis, one with the fast path (`fast`) and one
 * without (`plain`), get the same requests; answers must be byte-identical with the same headers.
 * A spy on `fast`'s express app tells which requests the fast path answered itself.
 */
const LIMIT = 4096;
const HEADERS = ['content-type', 'content-length', 'allow', 'connection', 'keep-alive'];

let chain: TestChain;
let db: TestDatabase;
let fast: Harness;
let plain: Harness;
let fastLogs: LogCapture;
let plainLogs: LogCapture;
let toExpress: ReturnType<typeof jest.spyOn>;
let hash1 = '';

beforeAll(async () => {
  chain = await startScriptableTestChain();
  db = await createTestDatabase();
  await chain.send(5n); // block 1 holds a transaction
  await chain.mine(5); // head 6: blocks 0 … 4 are final (depth 2)
  const common = {
    chainUrl: chain.url,
    databaseUrl: db.url,
    redisUrl: testRedisUrl(),
    keyPrefix: uniquePrefix('block-fast'),
    env: {
      BLOCK_INDEX_ENABLED: 'false',
      BLOCK_FINALITY_DEPTH: '2',
      BODY_LIMIT_BYTES: String(LIMIT),
      // rpc.discover names the same server URL on both.
      PUBLIC_URL: 'https://api.example.test',
    },
  };
  fastLogs = captureLogs('info');
  plainLogs = captureLogs('info');
  fast = await startHarness({ ...common, logger: fastLogs.logger });
  plain = await startHarness({ ...common, logger: plainLogs.logger, fastPath: false });
  // Into both processes' memory through the normal path.
  for (const params of [[0], [1], [1, true], [2]]) {
    await fast.data('getBlock', params);
    await plain.data('getBlock', params);
  }
  hash1 = (await fast.data<{ hash: string }>('getBlock', [1])).hash;
  const app = fast.app.service.app as unknown as { handle: (...args: unknown[]) => unknown };
  toExpress = jest.spyOn(app, 'handle');
});

afterAll(async () => {
  await fast?.close();
  await plain?.close();
  await db?.drop();
  await chain?.stop();
});

interface Request {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | (() => ReadableStream<Uint8Array>);
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function send(api: Harness, request: Request): Promise<Answer> {
  const { method = 'POST', path = '/block', body } = request;
  const init = {
    method,
    headers: request.headers ?? { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'function' ? body() : body }),
    duplex: 'half',
  } as RequestInit;
  const res = await fetch(api.url + path, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Sends `request` to both APIs; expects the same answer; returns it and how often `fast` used express. */
async function both(request: Request): Promise<{ answer: Answer; viaExpress: number }> {
  const calls = toExpress.mock.calls.length;
  const answer = await send(fast, request);
  const viaExpress = toExpress.mock.calls.length - calls;
  const expected = await send(plain, request);
  expect(answer.status).toBe(expected.status);
  expect(answer.text).toBe(expected.text);
  for (const name of HEADERS)
    expect([name, answer.headers.get(name)]).toEqual([name, expected.headers.get(name)]);
  expect(answer.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  return { answer, viaExpress };
}

const rpc = (params: unknown, id: unknown = 1, method = 'getBlock') =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('POST /block fast path: answered without express, byte-identical', () => {
  const cases: Array<[string, () => Request]> = [
    ['getBlock [0]', () => ({ body: rpc([0]) })],
    ['[1, true] (transaction records)', () => ({ body: rpc([1, true]) })],
    ['[1, false] with a string id', () => ({ body: rpc([1, false], 'call-7') })],
    ['["0x1"] with id null', () => ({ body: rpc(['0x1'], null) })],
    ['["earliest"]', () => ({ body: rpc(['earliest']) })],
    ['[hash]', () => ({ body: rpc([hash1], 3) })],
    [
      '[hash in upper case, true]',
      () => ({ body: rpc([`0x${hash1.slice(2).toUpperCase()}`, true]) }),
    ],
    [
      'an integer id beyond 2^53 and extra members, spaced out',
      () => ({
        body: ` { "params" : [2], "x": {"y": [1]}, "method": "getBlock", "id": 12345678901234567890, "jsonrpc": "2.0" } `,
      }),
    ],
    ['the path with a trailing slash', () => ({ path: '/block/', body: rpc([0]) })],
    [
      'a text/plain UTF-8 body',
      () => ({ headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: rpc([0]) }),
    ],
    ['no Content-Type', () => ({ headers: {}, body: new TextEncoder().encode(rpc([0])) })],
    [
      'a UTF-8 byte-order mark before the body',
      () => ({ body: new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(rpc([0]))]) }),
    ],
    [
      'a body sent in chunks without Content-Length',
      () => ({ body: () => streamOf([rpc([1]).slice(0, 10), rpc([1]).slice(10)]) }),
    ],
    // The JSON-RPC path reads any Content-Type as JSON text (only the charset counts): so does this.
    [
      'a wrong Content-Type (application/xml)',
      () => ({ headers: { 'content-type': 'application/xml' }, body: rpc([0]) }),
    ],
    [
      'a form Content-Type',
      () => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: rpc([2]) }),
    ],
  ];

  it.each(cases)('%s', async (_name, request) => {
    const { answer, viaExpress } = await both(request());
    expect(viaExpress).toBe(0);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ result: { resultCode: '200' } });
  });

  it('passes a well-formed x-request-id through, as the express path does', async () => {
    const { answer, viaExpress } = await both({
      headers: { 'content-type': 'application/json', 'x-request-id': 'parity-req-1' },
      body: rpc([0]),
    });
    expect(viaExpress).toBe(0);
    expect(answer.headers.get('x-request-id')).toBe('parity-req-1');
  });
});

describe('POST /block: everything else reaches the express path unchanged', () => {
  const invalidUtf8 = new Uint8Array([
    ...Buffer.from('{"jsonrpc":"2.0","id":"'),
    0xff,
    ...Buffer.from('"}'),
  ]);
  const cases: Array<[string, () => Request, number]> = [
    ['malformed JSON', () => ({ body: '{"jsonrpc":' }), 200],
    ['a batch', () => ({ body: `[${rpc([0], 1)},${rpc([1], 2)}]` }), 200],
    ['an empty batch', () => ({ body: '[]' }), 200],
    ['an unknown method', () => ({ body: rpc([0], 1, 'getBlocks') }), 200],
    [
      'a notification',
      () => ({ body: JSON.stringify({ jsonrpc: '2.0', method: 'getBlock', params: [0] }) }),
      204,
    ],
    ['invalid params', () => ({ body: rpc(['nope']) }), 200],
    ['params as an object', () => ({ body: rpc({ block: 0 }) }), 200],
    ['a fractional id', () => ({ body: rpc([0], 1.5) }), 200],
    [
      'jsonrpc "1.0"',
      () => ({ body: JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'getBlock', params: [0] }) }),
      200,
    ],
    [
      'params omitted (the latest block)',
      () => ({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBlock' }) }),
      200,
    ],
    ['a final block not in memory yet', () => ({ body: rpc([3]) }), 200],
    ['an unknown hash', () => ({ body: rpc([`0x${'ab'.repeat(32)}`]) }), 200],
    ['a block beyond the head', () => ({ body: rpc([1_000_000]) }), 200],
    ['rpc.discover', () => ({ body: rpc([], 1, 'rpc.discover') }), 200],
    ['getBlockNumber', () => ({ body: rpc([], 1, 'getBlockNumber') }), 200],
    ['bytes that are not UTF-8', () => ({ body: invalidUtf8 }), 200],
    [
      'a latin-1 charset',
      () => ({
        headers: { 'content-type': 'application/json; charset=ISO-8859-1' },
        body: rpc([0]),
      }),
      200,
    ],
    [
      'a gzip body',
      () => ({
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: new Uint8Array(gzipSync(rpc([0]))),
      }),
      200,
    ],
    ['a batch of one getBlock', () => ({ body: `[${rpc([0])}]` }), 200],
    ['a JSON value that is not a call', () => ({ body: '42' }), 200],
    ['an empty body', () => ({ body: '' }), 200],
    [
      'an unknown method with a cached block as params',
      () => ({ body: rpc([0], 1, 'GetBlock') }),
      200,
    ],
    [
      'a wrong Content-Type with a body that is not JSON',
      () => ({ headers: { 'content-type': 'text/html' }, body: '<p>getBlock</p>' }),
      200,
    ],
    ['a body over the limit (Content-Length)', () => ({ body: rpc([0], 'x'.repeat(LIMIT)) }), 413],
    ['a huge body (1 MiB, 256 × the limit)', () => ({ body: rpc([0], 'x'.repeat(1 << 20)) }), 413],
    [
      'a body over the limit, streamed without Content-Length',
      () => ({ body: () => streamOf(Array.from({ length: 9 }, () => 'x'.repeat(LIMIT / 8))) }),
      413,
    ],
    ['GET /block', () => ({ method: 'GET' }), 405],
  ];

  it.each(cases)('%s', async (_name, request, status) => {
    const { answer, viaExpress } = await both(request());
    expect(viaExpress).toBe(1);
    expect(answer.status).toBe(status);
  });

  it('answers a block from memory once the normal path has put it there', async () => {
    expect((await both({ body: rpc([4]) })).viaExpress).toBe(1);
    expect((await both({ body: rpc([4]) })).viaExpress).toBe(0);
  });
});

describe('what the express path gives besides the answer', () => {
  it('writes the same access log line (with the full path)', async () => {
    const request = (id: string) => ({
      headers: { 'content-type': 'application/json', 'x-request-id': id },
      body: rpc([0]),
    });
    expect((await both(request('log-parity-1'))).viaExpress).toBe(0);
    const fastLine = await accessLine(fastLogs, 'log-parity-1');
    const plainLine = await accessLine(plainLogs, 'log-parity-1');
    expect(fastLine).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { id: 'log-parity-1', method: 'POST', url: '/block' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(Object.keys(fastLine).sort()).toEqual(Object.keys(plainLine).sort());
    expect(plainLine).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { id: 'log-parity-1', method: 'POST' },
      res: { statusCode: 200 },
    });
  });

  it('counts the same latency observations and cache lookups', async () => {
    const counts = async (api: Harness) => {
      const text = await (await fetch(`${api.metricsUrl}/metrics`)).text();
      return {
        requests: sample(
          text,
          'http_request_duration_seconds_count',
          'route="/block/"',
          'status="200"',
        ),
        memoryHits: sample(text, 'block_cache_lookups_total', 'cache="final"', 'outcome="memory"'),
      };
    };
    const before = { fast: await counts(fast), plain: await counts(plain) };
    const calls = toExpress.mock.calls.length;
    for (const params of [[0], [1, true], [hash1]]) {
      await send(fast, { body: rpc(params) });
      await send(plain, { body: rpc(params) });
    }
    expect(toExpress.mock.calls.length).toBe(calls);
    // Latency is observed when the response closes: the three requests are counted once they are.
    const after = {
      fast: await countsSettled(counts, fast, before.fast.requests + 3),
      plain: await countsSettled(counts, plain, before.plain.requests + 3),
    };
    expect(after.fast.requests - before.fast.requests).toBe(3);
    expect(after.plain.requests - before.plain.requests).toBe(3);
    // By number: pointer + block; by hash: the block.
    expect(after.fast.memoryHits - before.fast.memoryHits).toBe(5);
    expect(after.plain.memoryHits - before.plain.memoryHits).toBe(5);
  });

  it('logs a request whose client went away while sending the body, as express does', async () => {
    const socket = await rawRequest(fast, 'abort-parity-1', 'Transfer-Encoding: chunked');
    socket.write('5\r\n{"jso\r\n');
    socket.destroy();
    expect(await accessLine(fastLogs, 'abort-parity-1')).toMatchObject({
      msg: 'request aborted',
      req: { id: 'abort-parity-1', method: 'POST', url: '/block' },
    });
  });

  it('is drained on shutdown: a request in flight is answered, with Connection: close', async () => {
    const body = rpc([0]);
    const expected = await send(plain, { body });
    const socket = await rawRequest(
      fast,
      'drain-parity-1',
      `Content-Length: ${Buffer.byteLength(body)}`,
    );
    const closing = fast.close();
    const response = readAll(socket);
    socket.write(body);
    const raw = await response;
    await closing;
    const [head, text] = raw.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(head).toMatch(/\r\nx-request-id: drain-parity-1\r\n/i);
    expect(text).toBe(expected.text);
  });
});

function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const chunks = parts.map((part) => new TextEncoder().encode(part));
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

/** The access log line of request `id`, once written (it is written when the response closes). */
async function accessLine(logs: LogCapture, id: string): Promise<LogEntry> {
  return waitFor(
    () =>
      logs.entries.find(
        (entry) => (entry['req'] as { id?: unknown } | undefined)?.id === id && 'res' in entry,
      ),
    { what: `the access log line of ${id}` },
  );
}

/** The value of the Prometheus sample `name` whose labels include every one of `labels`. */
function sample(text: string, name: string, ...labels: string[]): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && labels.every((label) => l.includes(label)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

function countsSettled<T extends { requests: number }>(
  counts: (api: Harness) => Promise<T>,
  api: Harness,
  atLeast: number,
): Promise<T> {
  return waitFor(
    async () => {
      const now = await counts(api);
      return now.requests >= atLeast ? now : undefined;
    },
    { what: `${atLeast} requests counted` },
  );
}

/**
 * Opens a connection and sends the head of a POST /block with `Expect: 100-continue`; resolves
 * once the server answered 100 Continue, i.e. once the request has reached the service.
 */
async function rawRequest(api: Harness, requestId: string, framing: string): Promise<Socket> {
  const { hostname, port } = new URL(api.url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    `POST /block HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `X-Request-Id: ${requestId}\r\n${framing}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await new Promise<void>((resolve) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      if (seen.includes('\r\n\r\n')) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
  });
  return socket;
}

/** Everything the server sends on `socket` until it closes the connection. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.once('error', reject);
  });
}
