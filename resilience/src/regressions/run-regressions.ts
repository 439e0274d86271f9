import type { Flows } from '../client/flows.js';
import type { RaceOutcome } from '../races/run-races.js';
import type { Stack } from '../stack/start-stack.js';
import { checkControlCharacters } from './control-characters.js';
import { checkDeepNesting } from './deep-nesting.js';
import { LEASE_REDIS_DOWN_MS, checkNonceLeaseOutage } from './nonce-lease-outage.js';
import { checkOneTimeRules } from './one-time-rules.js';

export interface RegressionOptions {
  /** How long Redis stays down under the held nonce leases (item 1); default 10 s. */
  leaseRedisDownMs?: number;
}

/**
 * Outage, input and one-time rules as checks against the real stack (reported like the races),
 * each written so that it fails against code without the rule (verified against the code
 * before those rules existed):
 * 1. nonce leases held by in-flight transfers (chain paused) when Redis stops for 10 s: clear
 *    503s meanwhile (never a gateway 504 / -32300), every sender transfers again within 5 s of
 *    Redis's return (nonce-lease-outage.ts);
 * 2. after Redis restarts EMPTY: a used VP does not log in again, an identical transfer retry
 *    gets its TransactionID, an approved web-site login is still handed out once
 *    (one-time-rules.ts);
 * 3. six control characters, NUL and DEL among them, in the auth-user id and in the HTTP Basic
 *    client id of the three relying-party endpoints: 400, never 500 / 503 / 401
 *    (control-characters.ts);
 * 4. JSON nested 20,000–50,000 levels inside the credentialSubject of a real VC / VP, to
 *    verify-vc, verify-vp, auth-user-with-vp: 400 (deep-nesting.ts).
 */
export async function runRegressions(
  stack: Stack,
  flows: Flows,
  options: RegressionOptions = {},
): Promise<RaceOutcome[]> {
  const outcomes: RaceOutcome[] = [];
  outcomes.push(await checkControlCharacters(stack, flows));
  outcomes.push(await checkDeepNesting(stack, flows));
  outcomes.push(await checkOneTimeRules(stack, flows));
  outcomes.push(
    await checkNonceLeaseOutage(stack, flows, options.leaseRedisDownMs ?? LEASE_REDIS_DOWN_MS),
  );
  return outcomes;
}
