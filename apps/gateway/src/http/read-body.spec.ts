import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readBody, type BodyOutcome } from './read-body.js';

const LIMIT = 1000;
let server: Server;
let port: number;

beforeAll(async () => {
  // Answers what readBody made of the request, as JSON.
  server = createServer((req, res) => {
    readBody(req, LIMIT, (outcome: BodyOutcome) => {
      const summary =
        outcome.kind === 'ok'
          ? {
              kind: 'ok',
              inflated: outcome.inflated,
              body: outcome.body === undefined ? null : outcome.body.toString('utf8'),
            }
          : outcome;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(summary));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function send(headers: Record<string, string>, chunks: Buffer[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/', headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('readBody', () => {
  it('reads a body up to the limit exactly, chunked or with Content-Length', async () => {
    const full = Buffer.alloc(LIMIT, 0x61);
    expect(await send({ 'content-length': String(LIMIT) }, [full])).toEqual({
      kind: 'ok',
      inflated: false,
      body: full.toString(),
    });
    expect(await send({}, [full.subarray(0, 600), full.subarray(600)])).toMatchObject({
      kind: 'ok',
      body: full.toString(),
    });
  });

  it('refuses one byte over the limit, declared or counted while streaming', async () => {
    const over = Buffer.alloc(LIMIT + 1, 0x61);
    expect(await send({ 'content-length': String(LIMIT + 1) }, [over])).toEqual({
      kind: 'too-large',
    });
    expect(await send({}, [over.subarray(0, 600), over.subarray(600)])).toEqual({
      kind: 'too-large',
    });
  });

  it('inflates gzip (the limit applies to the inflated size); refuses unknown or broken encodings', async () => {
    const text = JSON.stringify({ a: 'x'.repeat(200) });
    expect(await send({ 'content-encoding': 'gzip' }, [gzipSync(text)])).toEqual({
      kind: 'ok',
      inflated: true,
      body: text,
    });
    const bomb = gzipSync(Buffer.alloc(LIMIT * 10, 0x20));
    expect(bomb.length).toBeLessThan(LIMIT);
    expect(await send({ 'content-encoding': 'gzip' }, [bomb])).toEqual({ kind: 'too-large' });
    expect(await send({ 'content-encoding': 'zstd-x' }, [Buffer.from('abc')])).toEqual({
      kind: 'bad-encoding',
      status: 415,
    });
    expect(await send({ 'content-encoding': 'gzip' }, [Buffer.from('not gzip')])).toEqual({
      kind: 'bad-encoding',
      status: 400,
    });
  });
});
