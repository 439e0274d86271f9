import {
  BadGatewayError,
  GatewayTimeoutError,
  LoginRequestPendingError,
  NetworkError,
  ServiceUnavailableError,
  SlowDownError,
  TimeoutError,
} from '../errors/error-classes.js';
import { deadline } from '../http/deadline.js';
import { sleep } from '../http/sleep.js';
import type { CallOptions, LoginPoll, LoginResult, WaitForLoginOptions } from '../types.js';
import { LoginPollSchedule } from './login-poll-schedule.js';

/** At most this many transient failures (network, 502/503/504) in a row before giving up. */
export const MAX_TRANSIENT_FAILURES = 3;

const isTransient = (err: unknown): boolean =>
  (err instanceof NetworkError ||
    err instanceof ServiceUnavailableError ||
    err instanceof BadGatewayError ||
    err instanceof GatewayTimeoutError) &&
  !(err instanceof TimeoutError);

/**
 * Polls `poll` (auth-user-result-by-app) until it gives the login result. Still pending → wait
 * the interval; slow_down → the interval grows (LoginPollSchedule); a transient failure (network,
 * 502/503/504) → wait the interval, up to MAX_TRANSIENT_FAILURES in a row. Any other error ends
 * it: LoginRequestUnknownError when the request timed out, was cancelled or was handed out;
 * AbortedError when `signal` fires; TimeoutError after `timeoutMs`.
 */
export async function waitForLogin(
  poll: (call: CallOptions) => Promise<LoginResult>,
  requestId: string,
  options: WaitForLoginOptions = {},
): Promise<LoginResult> {
  const schedule = new LoginPollSchedule(options);
  const limit = deadline(options.signal, options.timeoutMs);
  const operation = '/v2/auth/auth-user-result-by-app';
  let transientFailures = 0;
  try {
    for (let attempt = 1; ; attempt++) {
      let outcome: LoginPoll['outcome'];
      let wait: number;
      try {
        return await poll({ signal: limit.signal });
      } catch (err) {
        if (limit.timedOut()) {
          throw new TimeoutError(`no login for ${requestId} within ${options.timeoutMs} ms`, {
            source: 'client',
            operation,
          });
        }
        if (err instanceof SlowDownError) {
          outcome = 'slow_down';
          wait = schedule.afterSlowDown(err.retryAfter);
        } else if (err instanceof LoginRequestPendingError) {
          outcome = 'pending';
          wait = schedule.afterPending();
          transientFailures = 0;
        } else if (isTransient(err) && ++transientFailures <= MAX_TRANSIENT_FAILURES) {
          outcome = 'unavailable';
          wait = schedule.afterPending();
        } else {
          throw err;
        }
      }
      options.onPoll?.({ attempt, outcome, nextPollInMs: wait });
      try {
        await sleep(wait, limit.signal, operation);
      } catch (err) {
        if (limit.timedOut()) {
          throw new TimeoutError(`no login for ${requestId} within ${options.timeoutMs} ms`, {
            source: 'client',
            operation,
          });
        }
        throw err;
      }
    }
  } finally {
    limit.clear();
  }
}
