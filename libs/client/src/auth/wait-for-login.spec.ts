import { describe, expect, it } from '@jest/globals';
import {
  AbortedError,
  InternalServerError,
  LoginRequestPendingError,
  LoginRequestUnknownError,
  NetworkError,
  ServiceUnavailableError,
  SlowDownError,
  TimeoutError,
} from '../errors/error-classes.js';
import type { CallOptions, LoginPoll, LoginResult } from '../types.js';
import { MAX_TRANSIENT_FAILURES, waitForLogin } from './wait-for-login.js';

const RESULT: LoginResult = {
  token: 'jwt',
  userId: 'demo',
  name: 'Demo User',
  telNo: null,
  email: '',
};
const pending = () => new LoginRequestPendingError('wait', { source: 'rest', status: 401 });
const slowDown = (retryAfter?: number) =>
  new SlowDownError('slow down', { source: 'rest', status: 429, retryAfter });

/** A poll answering the scripted outcomes in order (an Error is thrown, a result returned). */
function scripted(outcomes: Array<Error | LoginResult>) {
  const calls: CallOptions[] = [];
  const poll = async (call: CallOptions): Promise<LoginResult> => {
    calls.push(call);
    const next = outcomes.shift();
    if (next === undefined) throw new Error('polled more often than scripted');
    if (next instanceof Error) throw next;
    return next;
  };
  return { poll, calls };
}

describe('waitForLogin', () => {
  it('polls while pending, grows the interval on slow_down and returns the result', async () => {
    const { poll } = scripted([pending(), slowDown(), pending(), RESULT]);
    const polls: LoginPoll[] = [];
    const result = await waitForLogin(poll, 'r', {
      intervalMs: 2,
      slowDownStepMs: 3,
      onPoll: (p) => polls.push(p),
    });
    expect(result).toEqual(RESULT);
    expect(polls).toEqual([
      { attempt: 1, outcome: 'pending', nextPollInMs: 2 },
      { attempt: 2, outcome: 'slow_down', nextPollInMs: 5 },
      { attempt: 3, outcome: 'pending', nextPollInMs: 5 },
    ]);
  });

  it('waits at least the Retry-After of a slow_down', async () => {
    const { poll } = scripted([slowDown(0.004), RESULT]);
    const polls: LoginPoll[] = [];
    await waitForLogin(poll, 'r', {
      intervalMs: 1,
      slowDownStepMs: 0,
      onPoll: (p) => polls.push(p),
    });
    expect(polls[0]?.nextPollInMs).toBe(4);
  });

  it('ends with LoginRequestUnknownError when the request is gone', async () => {
    const { poll } = scripted([
      pending(),
      new LoginRequestUnknownError('gone', { source: 'rest' }),
    ]);
    await expect(waitForLogin(poll, 'r', { intervalMs: 1 })).rejects.toBeInstanceOf(
      LoginRequestUnknownError,
    );
  });

  it(`retries up to ${MAX_TRANSIENT_FAILURES} transient failures in a row, then gives up`, async () => {
    const down = () => new ServiceUnavailableError('down', { source: 'rest' });
    const net = () => new NetworkError('reset', { source: 'client' });
    const ok = scripted([net(), down(), pending(), net(), down(), net(), RESULT]);
    await expect(waitForLogin(ok.poll, 'r', { intervalMs: 1 })).resolves.toEqual(RESULT);
    const failing = scripted([net(), net(), net(), net()]);
    await expect(waitForLogin(failing.poll, 'r', { intervalMs: 1 })).rejects.toBeInstanceOf(
      NetworkError,
    );
  });

  it('does not retry other errors', async () => {
    const { poll } = scripted([new InternalServerError('bug', { source: 'rest' })]);
    await expect(waitForLogin(poll, 'r', { intervalMs: 1 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
  });

  it('stops with AbortedError when the signal fires while waiting', async () => {
    const controller = new AbortController();
    const { poll, calls } = scripted([pending(), pending()]);
    const waiting = waitForLogin(poll, 'r', {
      intervalMs: 60_000,
      signal: controller.signal,
      onPoll: () => controller.abort(),
    });
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.signal).toBeDefined();
  });

  it('stops with TimeoutError after timeoutMs', async () => {
    const { poll } = scripted([pending(), pending()]);
    await expect(
      waitForLogin(poll, 'r', { intervalMs: 60_000, timeoutMs: 5 }),
    ).rejects.toBeInstanceOf(TimeoutError);
  });
});
