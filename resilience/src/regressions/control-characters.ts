import { basic } from '../client/api.js';
import type { Flows } from '../client/flows.js';
import type { RaceOutcome } from '../races/run-races.js';
import type { Stack } from '../stack/start-stack.js';
import { flowsAs } from './support.js';

const IP = '203.0.113.31';

/** Six control characters, NUL and DEL among them (docs/api.md §2.3: none may be in an id). */
export const CONTROL_CHARACTERS: ReadonlyArray<readonly [name: string, char: string]> = [
  ['NUL', '\u0000'],
  ['SOH', '\u0001'],
  ['BEL', '\u0007'],
  ['LF', '\n'],
  ['ESC', '\u001b'],
  ['DEL', '\u007f'],
];

/**
 * Review item 3: a control character in an auth-user `id` or in the HTTP Basic client id of the
 * three relying-party endpoints is a 400 — never a 500 (PostgreSQL refuses NUL in text), a 503,
 * nor a 401 as if it were a mere unknown id (it would reach the database, the failure counters
 * and the logs). Each character is appended to the real id, with the real password / client
 * secret, so that the control character is the only thing wrong with the request. Through the
 * check's own client address: the old code counted these as failed authentications.
 */
export async function checkControlCharacters(stack: Stack, flows: Flows): Promise<RaceOutcome> {
  const api = flowsAs(flows, IP).api;
  const user = stack.accounts.users[2]!;
  const client = stack.accounts.client;
  const rows: string[] = [];
  let passed = true;
  for (const [name, char] of CONTROL_CHARACTERS) {
    // The header itself is base64: any character of the id travels in it unchanged.
    const site = basic(`${client.id}${char}`, client.secret);
    const answers = await Promise.all([
      api.rest('/v2/auth/auth-user', { id: `${user.id}${char}`, password: user.password }),
      api.rest('/v2/auth/auth-user-by-app', { requestId: client.prefix }, site),
      api.rest('/v2/auth/auth-user-result-by-app', { requestId: `${client.prefix}x` }, site),
      api.rest('/v2/auth/cancel-auth-user-by-app', { requestId: `${client.prefix}x` }, site),
    ]);
    const statuses = answers.map((a) => a.status);
    if (!statuses.every((s) => s === 400)) passed = false;
    rows.push(`${name} ${statuses.join('/')}`);
  }
  return {
    name: 'control characters (NUL, SOH, BEL, LF, ESC, DEL) in an auth-user id and in the Basic client id of auth-user-by-app, auth-user-result-by-app, cancel-auth-user-by-app',
    expected: '400 each (id/by-app/result/cancel)',
    observed: rows.join('; '),
    passed,
  };
}
