import { describe, expect, it } from '@jest/globals';
import {
  InsufficientFundsError,
  MethodNotFoundRpcError,
  TooManyRequestsError,
  TransportRpcError,
  UnexpectedResponseError,
  PayloadTooLargeError,
} from '../errors/error-classes.js';
import { jsonRpcRequest, readJsonRpcAnswer, type JsonRpcAnswer } from './envelope.js';

const answer = (body: unknown, status = 200): JsonRpcAnswer => ({
  path: '/token',
  method: 'transfer',
  id: 7,
  status,
  body,
});

const caught = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('did not throw');
};

describe('JSON-RPC envelope', () => {
  it('builds a 2.0 request, leaving params out when there are none', () => {
    expect(jsonRpcRequest(1, 'getBlock', [])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'getBlock',
      params: [],
    });
    expect(jsonRpcRequest(2, 'getBlockNumber')).toEqual({
      jsonrpc: '2.0',
      id: 2,
      method: 'getBlockNumber',
    });
  });

  it('reads resultData, and TransactionID of a transaction', () => {
    const ok = { resultCode: '200', resultMessage: 'Success' };
    expect(
      readJsonRpcAnswer(answer({ jsonrpc: '2.0', id: 7, result: { ...ok, resultData: { a: 1 } } })),
    ).toEqual({
      resultData: { a: 1 },
    });
    expect(
      readJsonRpcAnswer(
        answer({
          jsonrpc: '2.0',
          id: 7,
          result: { ...ok, TransactionID: '0xab', resultData: '0xab' },
        }),
      ),
    ).toEqual({ resultData: '0xab', transactionId: '0xab' });
  });

  it('turns a service error into its class, with retryAfter from "retry in N s"', () => {
    const err = caught(() =>
      readJsonRpcAnswer(
        answer({
          jsonrpc: '2.0',
          id: 7,
          result: { resultCode: '402', resultMessage: 'too poor', resultData: '' },
        }),
      ),
    ) as InsufficientFundsError;
    expect(err).toBeInstanceOf(InsufficientFundsError);
    expect([err.message, err.operation, err.source]).toEqual(['too poor', 'transfer', 'service']);
    const limited = caught(() =>
      readJsonRpcAnswer(
        answer({
          jsonrpc: '2.0',
          id: 7,
          result: {
            resultCode: '429',
            resultMessage: 'too many wallet calls: retry in 12 s',
            resultData: '',
          },
        }),
      ),
    ) as TooManyRequestsError;
    expect(limited).toBeInstanceOf(TooManyRequestsError);
    expect(limited.retryAfter).toBe(12);
  });

  it('turns a protocol error into its class (message, else msg)', () => {
    const err = caught(() =>
      readJsonRpcAnswer(
        answer({ jsonrpc: '2.0', id: 7, error: { code: -32601, msg: 'Method not found' } }),
      ),
    ) as MethodNotFoundRpcError;
    expect(err).toBeInstanceOf(MethodNotFoundRpcError);
    expect(err.message).toBe('Method not found');
    const transport = caught(() =>
      readJsonRpcAnswer(
        answer({ jsonrpc: '2.0', id: 7, error: { code: -32300, message: 'transport error' } }, 502),
      ),
    ) as TransportRpcError;
    expect([transport.constructor, transport.status]).toEqual([TransportRpcError, 502]);
  });

  it('accepts an error answer with id null (the server could not read the id)', () => {
    expect(
      caught(() =>
        readJsonRpcAnswer(
          answer({ jsonrpc: '2.0', id: null, error: { code: -32601, message: 'x' } }),
        ),
      ),
    ).toBeInstanceOf(MethodNotFoundRpcError);
  });

  it('maps a REST-shaped error of the gateway, and refuses anything else', () => {
    expect(
      caught(() =>
        readJsonRpcAnswer(answer({ error: { code: '413', message: 'too large' } }, 413)),
      ),
    ).toBeInstanceOf(PayloadTooLargeError);
    for (const body of [
      '<html>',
      undefined,
      { jsonrpc: '2.0', id: 7 },
      { jsonrpc: '2.0', id: 8, result: {} },
    ]) {
      expect(caught(() => readJsonRpcAnswer(answer(body)))).toBeInstanceOf(UnexpectedResponseError);
    }
  });
});
