import { describe, expect, it } from '@jest/globals';
import type { Suite } from './context.js';

interface RpcError {
  code: number;
  message: string;
  msg: string;
}
interface Envelope {
  jsonrpc: string;
  id: unknown;
  result?: { resultCode: string; resultMessage: string; resultData: unknown };
  error?: RpcError;
}

/**
 * The JSON-RPC 2.0 envelope of the API reference, every case sent to the gateway's /block: parse
 * errors, invalid requests, notifications, batches, rpc.discover.
 */
export const jsonRpcEnvelopeSuite: Suite = ({ stack }) => {
  describe('the JSON-RPC envelope through the gateway (/block)', () => {
    const send = (body: string): Promise<Response> =>
      fetch(`${stack().gatewayUrl}/block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const answer = async (body: unknown): Promise<Envelope> => {
      const res = await send(typeof body === 'string' ? body : JSON.stringify(body));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      return (await res.json()) as Envelope;
    };
    const expectError = (a: Envelope | undefined, id: unknown, code: number): void => {
      expect(a?.jsonrpc).toBe('2.0');
      expect(a?.id).toEqual(id);
      expect(a?.result).toBeUndefined();
      expect(a?.error?.code).toBe(code);
      expect(a?.error?.message).toEqual(expect.any(String));
      expect(a?.error?.msg).toBe(a?.error?.message);
    };

    it('an unparsable body: -32700 as JSON with id null', async () => {
      expectError(await answer('{"jsonrpc": "2.0", "id": 1, "method": '), null, -32700);
    });

    it('an invalid request: -32600', async () => {
      expectError(await answer({ jsonrpc: '2.0', id: 5 }), 5, -32600);
      expectError(await answer({ jsonrpc: '1.0', id: 6, method: 'getBlockNumber' }), 6, -32600);
    });

    it('an unknown method and a reserved rpc. name: -32601', async () => {
      expectError(await answer({ jsonrpc: '2.0', id: 7, method: 'getBlocks' }), 7, -32601);
      expectError(await answer({ jsonrpc: '2.0', id: 8, method: 'rpc.other' }), 8, -32601);
    });

    it('a malformed parameter: -32602', async () => {
      const a = await answer({ jsonrpc: '2.0', id: 9, method: 'getBlock', params: ['nope'] });
      expectError(a, 9, -32602);
    });

    it('a service error sits in result (resultCode "404", resultData "")', async () => {
      const a = await answer({ jsonrpc: '2.0', id: 10, method: 'getBlock', params: ['0xffffff'] });
      expect(a.error).toBeUndefined();
      expect(a.result).toEqual({
        resultCode: '404',
        resultMessage: expect.any(String),
        resultData: '',
      });
    });

    it('id null is answered', async () => {
      const a = await answer({ jsonrpc: '2.0', id: null, method: 'getBlockNumber', params: [] });
      expect(a.id).toBeNull();
      expect(a.result?.resultCode).toBe('200');
      expect(Number.isInteger(a.result?.resultData)).toBe(true);
    });

    it('a notification: HTTP 204 without a body, also as a batch of notifications only', async () => {
      for (const body of [
        { jsonrpc: '2.0', method: 'getBlockNumber', params: [] },
        [
          { jsonrpc: '2.0', method: 'getBlockNumber', params: [] },
          { jsonrpc: '2.0', method: 'noSuchMethod' },
        ],
      ]) {
        const res = await send(JSON.stringify(body));
        expect(res.status).toBe(204);
        expect(await res.text()).toBe('');
      }
    });

    it('a batch: one answer per request with an id, in order; notifications get none', async () => {
      const res = await send(
        JSON.stringify([
          { jsonrpc: '2.0', id: 'a', method: 'getBlockNumber', params: [] },
          { jsonrpc: '2.0', method: 'getBlockNumber', params: [] },
          { jsonrpc: '2.0', id: 'b', method: 'noSuchMethod' },
          1,
        ]),
      );
      expect(res.status).toBe(200);
      const answers = (await res.json()) as Envelope[];
      expect(answers).toHaveLength(3);
      expect(answers[0]?.id).toBe('a');
      expect(answers[0]?.result?.resultCode).toBe('200');
      expectError(answers[1], 'b', -32601);
      expectError(answers[2], null, -32600);
    });

    it('an empty batch: a single -32600', async () => {
      const a = await answer([]);
      expect(Array.isArray(a)).toBe(false);
      expectError(a, null, -32600);
    });

    it("rpc.discover: the block API's OpenRPC document", async () => {
      const a = await answer({ jsonrpc: '2.0', id: 11, method: 'rpc.discover' });
      const doc = a.result as unknown as { openrpc: string; methods: { name: string }[] };
      expect(doc.openrpc).toMatch(/^1\.\d+\.\d+$/);
      expect(doc.methods.map((m) => m.name)).toEqual(
        expect.arrayContaining([
          'getBlock',
          'getBlockNumber',
          'getTransaction',
          'getTransactionReceipt',
          'getTransactionStats',
        ]),
      );
    });
  });
};
