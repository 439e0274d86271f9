import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchStatusList } from './fetch-status-list.js';

let server: Server;
let base: string;
const seenAccept: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seenAccept.push(request.headers.accept);
    if (request.url === '/list') {
      response.writeHead(200, { 'content-type': 'application/statuslist+jwt' }).end('a.b.c\n');
    } else if (request.url === '/moved') {
      response.writeHead(302, { location: '/list' }).end();
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('fetchStatusList', () => {
  it('GETs the token with Accept: application/statuslist+jwt', async () => {
    await expect(fetchStatusList(`${base}/list`)).resolves.toBe('a.b.c');
    expect(seenAccept).toContain('application/statuslist+jwt');
  });

  it('throws on a non-2xx answer and on a redirect', async () => {
    await expect(fetchStatusList(`${base}/missing`)).rejects.toThrow(/404/);
    await expect(fetchStatusList(`${base}/moved`)).rejects.toThrow();
  });

  it('refuses plain http to anything but localhost, and other schemes', async () => {
    await expect(fetchStatusList('http://issuer.example/list')).rejects.toThrow(/not https/);
    await expect(fetchStatusList('file:///etc/passwd')).rejects.toThrow(/not https/);
  });
});
