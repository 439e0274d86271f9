import { describe, expect, it } from '@jest/globals';
import { RpcServer, type RpcMethod } from '@itp/jsonrpc';
import { createLogger } from '@itp/service-kit';
import type { Erc20Service } from '../erc20/erc20-service.js';
import type { TokenService } from '../transactions/token-service.js';
import type { WalletService } from '../wallet/wallet-service.js';
import { erc20Methods } from './erc20-methods.js';
import { RECORDED_RPC_EXAMPLES, type RpcApi } from './examples.js';
import { tokenMethods } from './token-methods.js';

// The committed examples (recorded-examples.json, recorded from a dev stack by
// tools/api-docs/record-examples.ts) against the method tables as they are now: every method has
// one, and each still fits the method's own params and result schemas. No stack needed, so a
// schema change that the examples no longer fit fails here: record them again.

const APIS: Array<[RpcApi, RpcMethod[]]> = [
  ['token', tokenMethods({} as WalletService, {} as TokenService)],
  ['erc20', erc20Methods({} as Erc20Service)],
];
const TX_HASH = /^0x[0-9a-f]{64}$/;

describe.each(APIS)('recorded examples of /%s', (api, methods) => {
  const recorded = RECORDED_RPC_EXAMPLES.apis[api];

  it('cover every method, and only methods that exist', () => {
    const names = methods.map((method) => method.name);
    expect(names.map((name) => ({ name, examples: (recorded[name]?.length ?? 0) > 0 }))).toEqual(
      names.map((name) => ({ name, examples: true })),
    );
    expect(Object.keys(recorded).filter((name) => !names.includes(name))).toEqual([]);
  });

  it.each(methods.map((method) => [method.name, method] as const))(
    '%s: params and result fit the method’s schemas',
    (name, method) => {
      for (const example of recorded[name] ?? []) {
        const params = method.params.safeParse(example.params);
        expect({ example: example.name, params: params.error?.issues ?? 'ok' }).toEqual({
          example: example.name,
          params: 'ok',
        });
        expect(example.result.resultCode).toBe('200');
        expect(example.result.resultMessage).toBe('Success');
        const result = method.result.safeParse(example.result.resultData);
        expect({ example: example.name, result: result.error?.issues ?? 'ok' }).toEqual({
          example: example.name,
          result: 'ok',
        });
        if (method.kind === 'transaction') expect(example.result.TransactionID).toMatch(TX_HASH);
        else expect(example.result.TransactionID).toBeUndefined();
      }
    },
  );

  it('reach the OpenRPC document, shown as the answer’s result', () => {
    const server = new RpcServer({
      info: { title: api, version: '0' },
      methods,
      logger: createLogger({ name: 'examples-spec', level: 'silent' }),
    });
    const doc = server.openRpcDocument() as {
      methods: Array<{ name: string; examples?: Array<{ result: { value: unknown } }> }>;
    };
    for (const method of doc.methods) {
      const first = recorded[method.name]?.[0];
      expect({ name: method.name, result: method.examples?.[0]?.result.value }).toEqual({
        name: method.name,
        result: first?.result,
      });
    }
  });
});
