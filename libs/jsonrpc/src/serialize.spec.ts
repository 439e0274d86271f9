import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { z } from 'zod';
import { defineMethod } from './method.js';
import { RpcServer } from './rpc-server.js';
import { RawJson, rawJson, stringifyJson } from './serialize.js';

const block = { number: 7, hash: '0xab', big: 'é✓', list: [1, null, { a: true }] };
const cachedText = JSON.stringify(block);

const server = new RpcServer({
  info: { title: 'Raw', version: '1.0.0' },
  logger: pino({ level: 'silent' }),
  methods: [
    defineMethod({
      name: 'cached',
      summary: 'pre-serialised data',
      paramsStyle: 'positional',
      params: z.array(z.unknown()),
      result: z.unknown(),
      handler: async () => rawJson(cachedText),
    }),
    defineMethod({
      name: 'cachedTx',
      summary: 'pre-serialised transaction data',
      kind: 'transaction',
      paramsStyle: 'positional',
      params: z.array(z.unknown()),
      result: z.unknown(),
      handler: async () => ({ transactionId: '0x1', resultData: rawJson('"0x2"') }),
    }),
    defineMethod({
      name: 'nested',
      summary: 'raw JSON inside an object',
      paramsStyle: 'positional',
      params: z.array(z.unknown()),
      result: z.unknown(),
      handler: async () => ({ inner: rawJson(cachedText) }),
    }),
  ],
});

async function call(method: string, id: unknown): Promise<string> {
  const answer = await server.handle(JSON.stringify({ jsonrpc: '2.0', id, method, params: [] }), {
    requestId: 'r',
  });
  return answer.body ?? '';
}

describe('RawJson results', () => {
  it('splices the cached text into the envelope: the same bytes stringifyJson would write', async () => {
    for (const id of [1, 'x"y', null]) {
      const text = await call('cached', id);
      expect(text).toBe(
        stringifyJson({
          jsonrpc: '2.0',
          id,
          result: { resultCode: '200', resultMessage: 'Success', resultData: block },
        }),
      );
      expect(text).toContain(cachedText);
    }
  });

  it('keeps TransactionID for transaction methods', async () => {
    expect(JSON.parse(await call('cachedTx', 2))).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: {
        resultCode: '200',
        resultMessage: 'Success',
        TransactionID: '0x1',
        resultData: '0x2',
      },
    });
  });

  it('serialises correctly anywhere else in a result', async () => {
    expect(JSON.parse(await call('nested', 3)).result.resultData).toEqual({ inner: block });
    expect(stringifyJson([new RawJson('{"a":1}')])).toBe('[{"a":1}]');
  });
});
