/**
 * The resolver against a stand-in JSON-RPC node (no registry changes for any address): it asks
 * the given URL and registry, and names the given chain in the document.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ethrDidResolver } from './ethr-did-resolver.js';

const REGISTRY = '0x00000000000000000000000000000000000000a1';
const ADDRESS = '0x00000000000000000000000000000000000000b2';

describe('ethrDidResolver', () => {
  const calls: { method: string; to?: string }[] = [];
  let server: Server;
  let rpcUrl = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const requests = JSON.parse(body) as unknown;
        const answer = (call: { id: number; method: string; params: { to?: string }[] }) => {
          calls.push({ method: call.method, to: call.params[0]?.to });
          const result = call.method === 'eth_chainId' ? '0x7a69' : `0x${'0'.repeat(64)}`;
          return { jsonrpc: '2.0', id: call.id, result };
        };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            Array.isArray(requests) ? requests.map(answer) : answer(requests as never),
          ),
        );
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await once(server, 'close');
  });

  it("resolves a did:ethr DID through the chain's registry, naming the chain id", async () => {
    const resolver = ethrDidResolver({ rpcUrl, registry: REGISTRY, chainId: 31337 });
    const { didDocument } = await resolver.resolve(`did:ethr:${ADDRESS}`);
    expect(didDocument?.verificationMethod?.[0]).toMatchObject({
      id: `did:ethr:${ADDRESS}#controller`,
      blockchainAccountId: expect.stringMatching(/^eip155:31337:0x0+b2$/i),
    });
    expect(calls.some((call) => call.method === 'eth_call' && call.to === REGISTRY)).toBe(true);
  });

  it('resolves no other DID method', async () => {
    const resolver = ethrDidResolver({ rpcUrl, registry: REGISTRY, chainId: 31337 });
    const { didResolutionMetadata } = await resolver.resolve('did:web:example.com');
    expect(didResolutionMetadata.error).toBe('unsupportedDidMethod');
  });
});
