import { describe, expect, it } from '@jest/globals';
import { ServiceUnavailableError, TooManyRequestsError, UnauthorizedError } from '@itp/errors';
import { MemoryKvStore } from '@itp/stores';
import { FailureCounter } from '../rate-limit/failure-counter.js';
import { attemptLogin, countedAttempt } from './attempt-login.js';
import type { Authenticated, LoginMethod } from './login-method.js';

const WINDOW_MS = 60_000;

function counters() {
  const kv = new MemoryKvStore();
  return {
    perIp: new FailureCounter(kv, { name: 'ip', max: 2, windowMs: WINDOW_MS }),
    perPair: new FailureCounter(kv, { name: 'pair', max: 2, windowMs: WINDOW_MS }),
  };
}

/** A method that accepts the password `right` for `alice`. */
function method(perIp: FailureCounter, perPair: FailureCounter): LoginMethod<string> {
  return {
    id: 'test',
    amr: 'pwd',
    failureLimits: async () => [
      { counter: perIp, subject: 'ip' },
      { counter: perPair, subject: 'pair', resetOnSuccess: true },
    ],
    authenticate: async (password): Promise<Authenticated> => {
      if (password === 'down') throw new ServiceUnavailableError('down');
      if (password !== 'right') throw new UnauthorizedError('wrong');
      return { userId: 'alice', amr: 'pwd' };
    },
  };
}

describe('attemptLogin: the one failure counting of the login methods', () => {
  it('counts a refusal on every limit and holds the attempt over one (429)', async () => {
    const { perIp, perPair } = counters();
    const login = method(perIp, perPair);
    await expect(attemptLogin(login, 'wrong')).rejects.toBeInstanceOf(UnauthorizedError);
    expect([await perIp.failures('ip'), await perPair.failures('pair')]).toEqual([1, 1]);
    await expect(attemptLogin(login, 'wrong')).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(attemptLogin(login, 'right')).rejects.toBeInstanceOf(TooManyRequestsError);
  });

  it('clears the resetOnSuccess limits on a success, and counts no outage', async () => {
    const { perIp, perPair } = counters();
    const login = method(perIp, perPair);
    await expect(attemptLogin(login, 'wrong')).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(attemptLogin(login, 'down')).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(attemptLogin(login, 'right')).resolves.toEqual({ userId: 'alice', amr: 'pwd' });
    expect([await perIp.failures('ip'), await perPair.failures('pair')]).toEqual([1, 0]);
  });

  it("counts what the method's isFailure says is a failure", async () => {
    const { perIp } = counters();
    const refused = new Error('malformed');
    await expect(
      countedAttempt(
        [{ counter: perIp, subject: 'ip' }],
        () => Promise.reject(refused),
        (err) => err === refused,
      ),
    ).rejects.toBe(refused);
    expect(await perIp.failures('ip')).toBe(1);
  });
});
