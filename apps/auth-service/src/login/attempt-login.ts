import { UnauthorizedError } from '@itp/errors';
import type { FailureLimit, Authenticated, LoginMethod } from './login-method.js';

/**
 * Runs `attempt` under `limits` (the one failure counting of every login method): each limit is
 * checked first (429 over it), a refusal that `isFailure` accepts (default: a 401) is counted on
 * all of them, a success clears those marked resetOnSuccess. Any other error (a 503, a 429)
 * counts nothing.
 */
export async function countedAttempt<T>(
  limits: readonly FailureLimit[],
  attempt: () => Promise<T>,
  isFailure: (err: unknown) => boolean = (err) => err instanceof UnauthorizedError,
): Promise<T> {
  for (const { counter, subject } of limits) await counter.check(subject);
  let result: T;
  try {
    result = await attempt();
  } catch (err) {
    if (isFailure(err)) {
      await Promise.all(limits.map(({ counter, subject }) => counter.recordFailure(subject)));
    }
    throw err;
  }
  await Promise.all(
    limits
      .filter((limit) => limit.resetOnSuccess)
      .map(({ counter, subject }) => counter.reset(subject)),
  );
  return result;
}

/** One login attempt by `method`, under the method's failure limits. */
export async function attemptLogin<Input, Result extends Authenticated>(
  method: LoginMethod<Input, Result>,
  input: Input,
): Promise<Result> {
  const limits = await method.failureLimits(input);
  return countedAttempt(limits, () => method.authenticate(input), method.isFailure?.bind(method));
}
