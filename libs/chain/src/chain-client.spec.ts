import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createChainClient, type ChainClient } from './chain-client.js';
import { ChainCircuitOpenError, ChainRpcError, ChainUnavailableError } from './chain-errors.js';
import { testChainUrl, REFUSING_URL } from './testing/test-chain.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A local HTTP server standing in for a broken node; returns its URL. */
async function fakeNode(handler: Handler): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('createChainClient against the dev chain', () => {
  let anvil: { url: string };
  let client: ChainClient;
  beforeAll(async () => {
    anvil = { url: testChainUrl() };
    client = createChainClient({ rpcUrl: anvil.url });
  });
  afterAll(async () => {
    await client.close();
  });

  it('makes raw JSON-RPC calls', async () => {
    const blockNumber = await client.request<string>('eth_blockNumber');
    expect(blockNumber).toMatch(/^0x[0-9a-f]+$/);
    const block = await client.request<{ hash: string }>('eth_getBlockByNumber', ['0x0', false]);
    expect(block.hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('returns the chain id as a number, the same on every call', async () => {
    const raw = await client.request<string>('eth_chainId');
    const first = await client.chainId();
    expect(first).toBe(Number(raw));
    expect(await client.chainId()).toBe(first);
  });

  it('pings', async () => {
    await expect(client.ping()).resolves.toBeUndefined();
  });

  it('keeps the node error code and message in ChainRpcError', async () => {
    const err = await failure(client.request('eth_noSuchMethod', []));
    expect(err).toBeInstanceOf(ChainRpcError);
    const rpcError = err as ChainRpcError;
    expect(rpcError.rpcCode).toBe(-32601);
    expect(rpcError.rpcMessage).not.toBe('');
    expect(rpcError.code).toBe('500');
    expect(rpcError.message).toContain('eth_noSuchMethod');

    const invalid = await failure(client.request('eth_getBalance', ['not-an-address', 'latest']));
    expect(invalid).toBeInstanceOf(ChainRpcError);
    expect((invalid as ChainRpcError).rpcCode).toBe(-32602);
  });

  it('refuses calls after close', async () => {
    const closing = createChainClient({ rpcUrl: anvil.url });
    await closing.close();
    const err = await failure(closing.ping());
    expect(err).toBeInstanceOf(ChainUnavailableError);
    expect(err.message).toBe('Chain node unavailable: client closed');
  });
});

describe('createChainClient against nodes that do not work', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(closeServer));
  });
  async function node(handler: Handler): Promise<string> {
    const { url, server } = await fakeNode(handler);
    servers.push(server);
    return url;
  }

  it('fails with ChainUnavailableError when nothing listens', async () => {
    const client = createChainClient({ rpcUrl: REFUSING_URL });
    const err = await failure(client.ping());
    expect(err).toBeInstanceOf(ChainUnavailableError);
    expect(err.message).toBe('Chain node unavailable: connection failed (ECONNREFUSED)');
    expect((err as ChainUnavailableError).code).toBe('503');
  });

  it('fails with ChainUnavailableError on an answer that is not JSON', async () => {
    const url = await node((_req, _body, res) => res.end('hello, I am not a node'));
    const err = await failure(createChainClient({ rpcUrl: url }).chainId());
    expect(err).toBeInstanceOf(ChainUnavailableError);
    expect(err.message).toBe('Chain node unavailable: answer is not JSON');
  });

  it('fails with ChainUnavailableError on JSON that is no JSON-RPC answer', async () => {
    const url = await node((_req, _body, res) => res.end('[1,2,3]'));
    const err = await failure(createChainClient({ rpcUrl: url }).request('eth_blockNumber'));
    expect(err.message).toBe('Chain node unavailable: answer is not a JSON-RPC response');
  });

  it('reports the HTTP status of an error page', async () => {
    const url = await node((_req, _body, res) => {
      res.statusCode = 502;
      res.end('<html>bad gateway</html>');
    });
    const err = await failure(createChainClient({ rpcUrl: url }).ping());
    expect(err.message).toBe('Chain node unavailable: HTTP 502');
  });

  it('rejects a chain id answer that is not a quantity', async () => {
    const url = await node((_req, body, res) => {
      const { id } = JSON.parse(body) as { id: number };
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: 'banana' }));
    });
    const err = await failure(createChainClient({ rpcUrl: url }).chainId());
    expect(err.message).toBe('Chain node unavailable: invalid eth_chainId answer');
  });

  it('times out a node that never answers', async () => {
    const url = await node(() => undefined);
    const err = await failure(createChainClient({ rpcUrl: url, timeoutMs: 200 }).ping());
    expect(err).toBeInstanceOf(ChainUnavailableError);
    expect(err.message).toBe('Chain node unavailable: no answer within 200 ms');
  });

  it('asks for the chain id once, and again after a failed ask', async () => {
    const methods: string[] = [];
    let fail = true;
    const url = await node((_req, body, res) => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      methods.push(method);
      if (fail) {
        fail = false;
        res.statusCode = 503;
        res.end('busy');
        return;
      }
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x2a' }));
    });
    const client = createChainClient({ rpcUrl: url });
    await expect(client.chainId()).rejects.toBeInstanceOf(ChainUnavailableError);
    expect(await client.chainId()).toBe(42);
    expect(await client.chainId()).toBe(42);
    expect(methods).toEqual(['eth_chainId', 'eth_chainId']);
  });

  it('sends URL credentials as Basic authorization and never puts them in messages', async () => {
    const seen: Array<string | undefined> = [];
    const url = await node((req, _body, res) => {
      seen.push(req.headers.authorization);
      res.statusCode = 401;
      res.end('no');
    });
    const withCredentials = url.replace('http://', 'http://alice:s3cret-pass@') + '/v3/api-key-123';
    const err = await failure(createChainClient({ rpcUrl: withCredentials }).ping());
    expect(seen).toEqual([`Basic ${Buffer.from('alice:s3cret-pass').toString('base64')}`]);
    expect(err.message).toBe('Chain node unavailable: HTTP 401');
    expect(`${err.message} ${String(err.stack)}`).not.toMatch(/s3cret|api-key-123|alice/);
  });
});

describe('createChainClient circuit breaker', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(closeServer));
  });

  it('after 3 timeouts refuses at once (503, Retry-After) without calling the node; a probe after the cooldown closes it', async () => {
    let hang = true;
    let calls = 0;
    const { url, server } = await fakeNode((_req, body, res) => {
      calls += 1;
      if (hang) return; // a node that hangs: the connection stays open, nothing is answered
      const { id } = JSON.parse(body) as { id: number };
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x10' }));
    });
    servers.push(server);
    let now = 0;
    const client = createChainClient({
      rpcUrl: url,
      timeoutMs: 300,
      breaker: { cooldownMs: 5_000, now: () => now },
    });
    for (let i = 0; i < 3; i += 1) {
      const err = await failure(client.ping());
      expect(err.message).toBe('Chain node unavailable: no answer within 300 ms');
    }
    expect(calls).toBe(3);

    const started = performance.now();
    const refused = await failure(client.request('eth_blockNumber'));
    expect(performance.now() - started).toBeLessThan(100);
    expect(refused).toBeInstanceOf(ChainCircuitOpenError);
    expect(refused).toBeInstanceOf(ChainUnavailableError);
    expect((refused as ChainCircuitOpenError).code).toBe('503');
    expect((refused as ChainCircuitOpenError).retryAfterSeconds).toBe(5);
    expect(refused.message).toBe(
      'Chain node unavailable: 3 consecutive calls failed (last: no answer within 300 ms); ' +
        'not called for another 5 s (circuit open), nothing was sent',
    );
    now += 3_500;
    expect(((await failure(client.ping())) as ChainCircuitOpenError).retryAfterSeconds).toBe(2);
    expect(calls).toBe(3); // the node was not called while the breaker was open

    // The node answers again; after the cooldown one probe goes to it and closes the breaker.
    hang = false;
    now += 1_500;
    expect(await client.request('eth_blockNumber')).toBe('0x10');
    await expect(client.ping()).resolves.toBeUndefined();
    expect(calls).toBe(5);
  });

  it('counts connection failures, not the node refusing a call (a JSON-RPC error is an answer)', async () => {
    const refusing = createChainClient({ rpcUrl: REFUSING_URL, breaker: { failureThreshold: 2 } });
    await failure(refusing.ping());
    await failure(refusing.ping());
    expect(await failure(refusing.ping())).toBeInstanceOf(ChainCircuitOpenError);

    const { url, server } = await fakeNode((_req, body, res) => {
      const { id } = JSON.parse(body) as { id: number };
      res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'nope' } }));
    });
    servers.push(server);
    const answering = createChainClient({ rpcUrl: url, breaker: { failureThreshold: 2 } });
    for (let i = 0; i < 5; i += 1) {
      expect(await failure(answering.request('eth_call'))).toBeInstanceOf(ChainRpcError);
    }
  });

  it('breaker: false never refuses', async () => {
    const client = createChainClient({ rpcUrl: REFUSING_URL, breaker: false });
    for (let i = 0; i < 5; i += 1) {
      expect((await failure(client.ping())).message).toBe(
        'Chain node unavailable: connection failed (ECONNREFUSED)',
      );
    }
  });
});
