import { describe, expect, it } from '@jest/globals';
import {
  BadGatewayError,
  BadRequestError,
  GatewayTimeoutError,
  InvalidCredentialsError,
  InvalidParamsRpcError,
  ItpError,
  MethodNotFoundRpcError,
  NetworkError,
  NotFoundError,
  ServiceUnavailableError,
  TimeoutError,
  TransportRpcError,
} from '@itp/client';
import { ConfigError, FailedError, UsageError } from './errors.js';
import { EXIT, describeFailure, exitCodeOf } from './exit-codes.js';

const URL = 'http://127.0.0.1:8080';

describe('exitCodeOf', () => {
  it('is 2 for usage and configuration errors', () => {
    expect(exitCodeOf(new UsageError('x'))).toBe(EXIT.usage);
    expect(exitCodeOf(new ConfigError('x'))).toBe(EXIT.usage);
    expect(EXIT.usage).toBe(2);
  });

  it('is 3 when the platform cannot be reached or a service is down', () => {
    const unavailable = [
      new NetworkError('fetch failed', { source: 'client' }),
      new TimeoutError('no answer in 30000 ms', { source: 'client' }),
      new ServiceUnavailableError('redis down', { source: 'rest', status: 503 }),
      new ServiceUnavailableError('db down', { source: 'service' }),
      new BadGatewayError('upstream', { source: 'rest', status: 502 }),
      new GatewayTimeoutError('upstream slow', { source: 'rest', status: 504 }),
      new TransportRpcError('gateway', { source: 'jsonrpc', status: 502 }),
      new ItpError('whatever', { source: 'rest', status: 503 }),
    ];
    for (const err of unavailable) expect([err.name, exitCodeOf(err)]).toEqual([err.name, 3]);
  });

  it('is 1 for every other answer of the platform and for failures the CLI detects', () => {
    const refused = [
      new InvalidCredentialsError('wrong id or password', { source: 'rest', status: 401 }),
      new BadRequestError('bad', { source: 'service' }),
      new NotFoundError('no such block', { source: 'service' }),
      new MethodNotFoundRpcError('no method', { source: 'jsonrpc', status: 200 }),
      new FailedError('transaction 0x1 failed', 'failed'),
      new Error('a bug'),
      'not even an error',
    ];
    for (const err of refused) expect(exitCodeOf(err)).toBe(EXIT.failed);
  });
});

describe('describeFailure', () => {
  it('prints an API error with its code and where it happened', () => {
    const err = new InvalidCredentialsError('wrong id or password', {
      source: 'rest',
      status: 401,
      code: '401',
      operation: '/v2/auth/auth-user',
    });
    expect(describeFailure(err, URL)).toBe(
      'error [401] (/v2/auth/auth-user): wrong id or password\n',
    );
  });

  it('adds what a JSON-RPC invalid-params error names in its data', () => {
    const err = new InvalidParamsRpcError('Invalid params', {
      source: 'jsonrpc',
      code: -32602,
      operation: 'getBalance',
      data: {
        issues: [
          { path: ['address'], message: 'must be a 0x-prefixed 20-byte hex address' },
          { path: [], message: 'too many keys' },
          { nonsense: true },
        ],
      },
    });
    expect(describeFailure(err, URL)).toBe(
      'error [-32602] (getBalance): Invalid params: address: must be a 0x-prefixed 20-byte hex address; too many keys\n',
    );
    const plain = new InvalidParamsRpcError('Invalid params', { source: 'jsonrpc', data: 'x' });
    expect(describeFailure(plain, URL)).toBe('error [-32602]: Invalid params\n');
  });

  it('says when to retry, and for an unavailable platform which URL and how to change it', () => {
    const err = new ServiceUnavailableError('database down', {
      source: 'rest',
      status: 503,
      retryAfter: 5,
    });
    expect(describeFailure(err, URL)).toBe(
      'error [503]: database down; retry in 5 s\n' +
        'The platform at http://127.0.0.1:8080 is not available: is it running? (set it with --url or ITP_URL)\n',
    );
  });

  it('points a usage error at --help; prints configuration and detected failures plainly', () => {
    expect(describeFailure(new UsageError('--id is required'), URL)).toBe(
      'error: --id is required\nRun "itp --help" for usage.\n',
    );
    expect(describeFailure(new ConfigError('no token'), URL)).toBe('error: no token\n');
    expect(describeFailure(new FailedError('it reverted', 'failed'), URL)).toBe(
      'error [failed]: it reverted\n',
    );
    expect(describeFailure(new Error('boom'), URL)).toBe('error: unexpected failure: boom\n');
  });
});
