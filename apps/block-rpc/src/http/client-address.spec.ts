import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { clientAddress, type TrustProxyFn } from './client-address.js';

/**
 * clientAddress against express's own req.ip: one server answers both for each TRUST_PROXY
 * setting and X-Forwarded-For header, so the fast path counts a call for the client the
 * JSON-RPC path would.
 */
describe('clientAddress', () => {
  const settings: unknown[] = [false, true, 'loopback', 1, 2, '10.0.0.0/8', 'loopback, 10.0.0.1'];
  const servers: Server[] = [];
  const urls = new Map<unknown, string>();

  beforeAll(async () => {
    for (const setting of settings) {
      const app = express();
      app.set('trust proxy', setting);
      const trust = app.get('trust proxy fn') as TrustProxyFn;
      app.get('/', (req, res) => {
        res.json({ express: req.ip, ours: clientAddress(req, trust) });
      });
      const server = createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      urls.set(setting, `http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    }
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  const headers = [
    undefined,
    '203.0.113.5',
    '203.0.113.5, 10.0.0.1',
    ' 198.51.100.1 ,203.0.113.5,, 10.0.0.1 ',
    '2001:db8::1, 127.0.0.1',
    'not-an-address, 10.0.0.2',
  ];

  it.each(settings)('gives what express gives as req.ip (trust proxy %p)', async (setting) => {
    for (const header of headers) {
      const res = await fetch(urls.get(setting)!, {
        headers: header === undefined ? {} : { 'x-forwarded-for': header },
      });
      const { express: expected, ours } = (await res.json()) as Record<string, string>;
      expect({ header, ours }).toEqual({ header, ours: expected });
    }
  });
});
