import { describe, expect, it } from '@jest/globals';
import type { Answer } from '../client/http.js';
import { checkRest, checkRpc } from './check-answer.js';

const answer = (status: number, body: unknown): Answer => ({
  status,
  headers: {},
  text: typeof body === 'string' ? body : JSON.stringify(body),
  ms: 1,
});

describe('checkRest', () => {
  it('takes the OAuth shape on endpoints that document it, with their pairs only', () => {
    const oauth = new Set(['400:invalid_request', '404:invalid_request']);
    const oauthError = (status: number, error: string) =>
      answer(status, { error, error_description: 'no' });
    expect(checkRest('auth', oauthError(404, 'invalid_request'), false, oauth)).toBe('ok');
    expect(checkRest('auth', oauthError(400, 'access_denied'), false, oauth)).toBe(
      'undocumented-code',
    );
    expect(checkRest('auth', oauthError(400, 'invalid_request'))).toBe('undocumented-shape');
    expect(checkRest('auth', answer(400, { error: 'invalid_request' }), false, oauth)).toBe(
      'undocumented-shape',
    );
    expect(
      checkRest('auth', answer(413, { error: { code: '413', message: 'big' } }), false, oauth),
    ).toBe('ok');
  });

  it('accepts documented errors and successes', () => {
    expect(checkRest('auth', answer(200, { token: 'x' }))).toBe('ok');
    expect(checkRest('auth', answer(400, { error: { code: '400', message: 'bad' } }))).toBe('ok');
    expect(
      checkRest('auth', answer(401, { error: { code: 'invalid_client', message: 'no' } })),
    ).toBe('ok');
    expect(checkRest('did', answer(413, { error: { code: '413', message: 'big' } }))).toBe('ok');
  });

  it('flags 5xx (503 only during a fault), other shapes, unknown codes and no answer', () => {
    expect(checkRest('auth', answer(500, { error: { code: '500', message: 'x' } }))).toBe('5xx');
    expect(checkRest('auth', answer(503, { error: { code: '503', message: 'x' } }))).toBe('5xx');
    expect(checkRest('auth', answer(503, { error: { code: '503', message: 'x' } }), true)).toBe(
      'ok',
    );
    expect(checkRest('auth', answer(400, { message: 'bad' }))).toBe('undocumented-shape');
    expect(checkRest('auth', answer(400, 'Bad Request'))).toBe('undocumented-shape');
    expect(
      checkRest('auth', answer(400, { error: { code: '400', message: 'x' }, stack: 's' })),
    ).toBe('undocumented-shape');
    expect(checkRest('did', answer(400, { error: { code: 'weird', message: 'x' } }))).toBe(
      'undocumented-code',
    );
    expect(checkRest('did', { ...answer(0, ''), error: 'ECONNRESET' })).toBe('no-answer');
  });
});

describe('checkRpc', () => {
  const ok = {
    jsonrpc: '2.0',
    id: 1,
    result: { resultCode: '200', resultMessage: 'Success', resultData: 1 },
  };
  const svc = (code: string) => ({
    jsonrpc: '2.0',
    id: 1,
    result: { resultCode: code, resultMessage: 'm', resultData: '' },
  });
  const err = (code: number, msg = 'm') => ({
    jsonrpc: '2.0',
    id: null,
    error: { code, message: 'm', msg },
  });

  it('accepts results, documented service errors, protocol errors, batches and 204', () => {
    expect(checkRpc(answer(200, ok))).toBe('ok');
    expect(checkRpc(answer(200, svc('409')))).toBe('ok');
    expect(checkRpc(answer(200, err(-32602)))).toBe('ok');
    expect(checkRpc(answer(200, [ok, err(-32600), svc('404')]))).toBe('ok');
    expect(checkRpc(answer(204, ''))).toBe('ok');
    expect(checkRpc(answer(413, { error: { code: '413', message: 'big' } }))).toBe('ok');
    expect(checkRpc(answer(200, svc('503')), true)).toBe('ok');
  });

  it('flags -32603, resultCode 500/503, broken envelopes and HTTP 5xx', () => {
    expect(checkRpc(answer(200, err(-32603)))).toBe('internal-error');
    expect(checkRpc(answer(200, svc('500')))).toBe('internal-error');
    expect(checkRpc(answer(200, svc('503')))).toBe('5xx');
    expect(checkRpc(answer(200, [ok, err(-32603)]))).toBe('internal-error');
    expect(checkRpc(answer(200, err(-32600, 'other')))).toBe('undocumented-shape');
    expect(checkRpc(answer(200, { id: 1, result: 1 }))).toBe('undocumented-shape');
    expect(checkRpc(answer(200, []))).toBe('undocumented-shape');
    expect(checkRpc(answer(502, err(-32300)))).toBe('5xx');
  });
});
