import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort, waitFor } from '@itp/testing';
import { startGateway, type RunningGateway } from './testing/start-gateway.js';

/**
 * The forwarder's own undici handler (http/forward.ts, ADR 0038) with answers that do not fit in
 * one socket write: an 8 MiB answer to a client that does not read for a while (undici paused
 * until the client's response drains, nothing lost or reordered), and a client that leaves in
 * the middle of an answer (the upstream request is aborted, not left running).
 */
const CHUNK = 64 * 1024;
const CHUNKS = 128; // 8 MiB
const chunkAt = (i: number) => Buffer.alloc(CHUNK, i % 251);
const expectedDigest = (() => {
  const hash = createHash('sha256');
  for (let i = 0; i < CHUNKS; i += 1) hash.update(chunkAt(i));
  return hash.digest('hex');
})();

let upstream: Server;
let gateway: RunningGateway;
/** Upstream answers that ended because their request went away before they were complete. */
let cutShort = 0;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    if (req.url === '/block?large') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let i = 0;
      const more = (): void => {
        while (i < CHUNKS) {
          const ok = res.write(chunkAt(i));
          i += 1;
          if (!ok) {
            res.once('drain', more);
            return;
          }
        }
        res.end();
      };
      more();
      return;
    }
    // /block?never-ends: a first chunk, then silence until the request goes away.
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write(chunkAt(0));
    res.once('close', () => {
      if (!res.writableEnded) cutShort += 1;
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as AddressInfo).port;
  gateway = await startGateway({
    AUTH_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
    TOKEN_RPC_URL: `http://127.0.0.1:${await freePort()}`,
    DID_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
    BLOCK_RPC_URL: `http://127.0.0.1:${port}`,
    UPSTREAM_TIMEOUT_MS: '5000',
  });
});

afterAll(async () => {
  await gateway?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

function get(path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request(`${gateway.url}${path}`, resolve).on('error', reject).end();
  });
}

describe('forwarding answers larger than one write', () => {
  it('passes an 8 MiB answer intact to a client that pauses before reading', async () => {
    const res = await get('/block?large');
    expect(res.statusCode).toBe(200);
    res.pause();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the gateway's writes back up
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of res) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    expect(bytes).toBe(CHUNK * CHUNKS);
    expect(hash.digest('hex')).toBe(expectedDigest);
  });

  it('aborts the upstream request when the client leaves in the middle of an answer', async () => {
    const before = cutShort;
    const res = await get('/block?never-ends');
    expect(res.statusCode).toBe(200);
    await new Promise((resolve) => res.once('data', resolve)); // the first chunk came through
    res.destroy();
    await waitFor(() => cutShort > before, {
      what: 'the upstream answer to be cut',
      timeoutMs: 3000,
    });
    expect(cutShort).toBe(before + 1);
  });
});
