import { describe, expect, it } from '@jest/globals';
import { jsonRpcIdOf, upstreamFailureResponse } from './upstream-failure.js';

const rest = { name: 'auth-service', protocol: 'rest' as const };
const rpc = { name: 'token-rpc', protocol: 'jsonrpc' as const };

describe('jsonRpcIdOf', () => {
  it('finds the id of a single request', () => {
    expect(jsonRpcIdOf(Buffer.from('{"jsonrpc":"2.0","id":5,"method":"m"}'))).toBe(5);
    expect(jsonRpcIdOf(Buffer.from('{"jsonrpc":"2.0","id":"a","method":"m"}'))).toBe('a');
  });

  it('is null for batches, notifications, null ids, bad JSON and no body', () => {
    for (const body of ['[{"id":1}]', '{"method":"m"}', '{"id":null}', '{"id":{}}', '{', '3']) {
      expect(jsonRpcIdOf(Buffer.from(body))).toBeNull();
    }
    expect(jsonRpcIdOf(undefined)).toBeNull();
    expect(jsonRpcIdOf(Buffer.alloc(0))).toBeNull();
  });
});

describe('upstreamFailureResponse', () => {
  it('REST: 502 / 504 in the REST error shape', () => {
    expect(upstreamFailureResponse(rest, 'unavailable', 100, undefined)).toEqual({
      status: 502,
      body: { error: { code: '502', message: 'auth-service is unavailable' } },
    });
    expect(upstreamFailureResponse(rest, 'timeout', 100, undefined)).toEqual({
      status: 504,
      body: { error: { code: '504', message: 'auth-service did not answer within 100 ms' } },
    });
  });

  it('JSON-RPC: a -32300 envelope with message and msg alike', () => {
    const body = Buffer.from('{"jsonrpc":"2.0","id":9,"method":"transfer"}');
    const text = 'transport error: token-rpc is unavailable';
    expect(upstreamFailureResponse(rpc, 'unavailable', 100, body)).toEqual({
      status: 502,
      body: { jsonrpc: '2.0', id: 9, error: { code: -32300, message: text, msg: text } },
    });
    expect(upstreamFailureResponse(rpc, 'timeout', 100, undefined).status).toBe(504);
  });
});
