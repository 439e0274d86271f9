import { describe, expect, it } from '@jest/globals';
import {
  InvalidParamsError,
  RPC_ERRORS,
  RpcError,
  defaultRpcMessage,
  rpcErrorObject,
} from './rpc-errors.js';

describe('RPC_ERRORS', () => {
  it('holds the ten codes of docs/api.md §6', () => {
    expect(Object.values(RPC_ERRORS).map((e) => e.code)).toEqual([
      -32700, -32701, -32702, -32600, -32601, -32602, -32603, -32500, -32400, -32300,
    ]);
    for (const { message } of Object.values(RPC_ERRORS)) expect(message.length).toBeGreaterThan(0);
  });

  it('gives the default message of a code, and a generic one for other codes', () => {
    expect(defaultRpcMessage(-32601)).toBe('Method not found');
    expect(defaultRpcMessage(-32000)).toBe('Server error');
  });
});

describe('rpcErrorObject', () => {
  it('carries message and msg with the same text, data only when given', () => {
    expect(rpcErrorObject(-32700)).toEqual({
      code: -32700,
      message: 'Parse error',
      msg: 'Parse error',
    });
    expect(rpcErrorObject(-32602, 'Bad', { issues: [] })).toEqual({
      code: -32602,
      message: 'Bad',
      msg: 'Bad',
      data: { issues: [] },
    });
  });
});

describe('RpcError', () => {
  it('is an Error with an integer code, a default message and optional data', () => {
    const err = new RpcError(-32500);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('Application error');
    expect(err.toErrorObject()).toEqual({
      code: -32500,
      message: 'Application error',
      msg: 'Application error',
    });
    expect(new RpcError(-32000, 'Custom', { a: 1 }).toErrorObject()).toEqual({
      code: -32000,
      message: 'Custom',
      msg: 'Custom',
      data: { a: 1 },
    });
  });

  it('refuses a code that is not an integer', () => {
    expect(() => new RpcError(-32000.5)).toThrow(TypeError);
  });
});

describe('InvalidParamsError', () => {
  it('is -32602 with issues, one at the root when none are given', () => {
    const plain = new InvalidParamsError('from and to must differ');
    expect(plain).toBeInstanceOf(RpcError);
    expect(plain.toErrorObject()).toEqual({
      code: -32602,
      message: 'from and to must differ',
      msg: 'from and to must differ',
      data: { issues: [{ path: [], message: 'from and to must differ' }] },
    });
    const detailed = new InvalidParamsError(undefined, [{ path: ['to'], message: 'same as from' }]);
    expect(detailed.message).toBe('Invalid params');
    expect(detailed.data).toEqual({ issues: [{ path: ['to'], message: 'same as from' }] });
  });
});
