import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  BadGatewayError,
  ForbiddenError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from '@itp/errors';
import { InternalClient } from './internal-api.js';

// A real HTTP server answering /<status> with that status and the REST error shape.
let server: Server;
let baseUrl: string;
let lastAuthorization: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    lastAuthorization = req.headers.authorization;
    const status = Number(req.url?.slice(1));
    if (req.url === '/not-json') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (status === 429) headers['retry-after'] = '7';
    if (status === 503) headers['retry-after'] = '11';
    const body =
      status === 200
        ? { ok: true }
        : { error: { code: String(status), message: `upstream says ${status}` } };
    res.writeHead(status, headers).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const client = () => new InternalClient({ baseUrl, token: 'internal-token', service: 'upstream' });

describe('InternalClient', () => {
  it('returns the JSON answer and sends the bearer token', async () => {
    await expect(client().post('/200', {})).resolves.toEqual({ ok: true });
    expect(lastAuthorization).toBe('Bearer internal-token');
  });

  it('turns a REST error into the same status and message', async () => {
    await expect(client().post('/403', {})).rejects.toThrow(
      new ForbiddenError('upstream says 403'),
    );
    const tooMany = await client()
      .post('/429', {})
      .catch((e: unknown) => e);
    expect(tooMany).toBeInstanceOf(TooManyRequestsError);
    expect((tooMany as TooManyRequestsError).retryAfterSeconds).toBe(7);
  });

  it('answers an upstream 503 / 504 as unavailable (503), never as an internal error', async () => {
    for (const status of [503, 504]) {
      const err = await client()
        .post(`/${status}`, {})
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect((err as ServiceUnavailableError).status).toBe(503);
    }
    // The peer's Retry-After is passed on; without one, the default applies.
    const withHint = await client()
      .post('/503', {})
      .catch((e: unknown) => e);
    expect((withHint as ServiceUnavailableError).retryAfterSeconds).toBe(11);
  });

  it('answers an upstream 500 or an unexpected status as a bad gateway (502)', async () => {
    for (const status of [500, 413, 418]) {
      const err = await client()
        .post(`/${status}`, {})
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadGatewayError);
      expect((err as BadGatewayError).message).toBe(`upstream failed (${status})`);
    }
  });

  it('answers a body that is not JSON as a bad gateway', async () => {
    await expect(client().post('/not-json', {})).rejects.toBeInstanceOf(BadGatewayError);
  });

  it('answers a refused connection as unavailable (503)', async () => {
    const down = new InternalClient({
      baseUrl: 'http://127.0.0.1:2',
      token: 't',
      service: 'down',
    });
    await expect(down.post('/200', {})).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
