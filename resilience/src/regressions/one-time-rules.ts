import { waitFor } from '@itp/testing/wait-for';
import { basic } from '../client/api.js';
import type { Flows } from '../client/flows.js';
import type { RaceOutcome } from '../races/run-races.js';
import type { Stack } from '../stack/start-stack.js';
import { SINK } from './support.js';

/** After Redis came back: the first correct login shows the stack serves again. */
async function waitForLogin(flows: Flows, id: string, password: string): Promise<void> {
  await waitFor(async () => (await flows.api.login(id, password)).status === 200, {
    what: `user ${id} to log in again`,
    timeoutMs: 20_000,
    intervalMs: 200,
  }).catch(() => undefined); // still refused: the checks that follow show it
}

/**
 * Review item 2: after Redis restarts EMPTY, a used VP does not log in again, an identical
 * transfer retry gets its TransactionID, an approved web-site login is still handed out once.
 */
export async function checkOneTimeRules(stack: Stack, flows: Flows): Promise<RaceOutcome> {
  const user = stack.accounts.users[2]!;
  const token = await flows.login(user.id, user.password);
  const client = stack.accounts.client;
  const site = basic(client.id, client.secret);
  const holder = await flows.createAddress();
  const did = await flows.createDid(holder, 'regression-phone', token);
  const holderDid = (did.body as { did?: string } | undefined)?.did;
  if (!holderDid) throw new Error(`create-did: ${did.status} ${did.text}`);
  const vp = await flows.loginVp(token, holderDid);
  const firstLogin = await flows.api.rest('/v2/auth/auth-user-with-vp', { vp });
  const payer = await flows.createAddress();
  await flows.fund(stack.chain, payer.address);
  const params = await flows.transferParams(payer, SINK, '4242');
  const sent = await flows.transfer(params);
  const created = await flows.api.rest(
    '/v2/auth/auth-user-by-app',
    { requestId: client.prefix, waitTime: 120 },
    site,
  );
  const requestId = (created.body as { requestId?: string } | undefined)?.requestId;
  const approved = await flows.api.rest('/v2/auth/auth-user-with-vp', {
    vp: await flows.loginVp(token, holderDid),
    requestId,
  });
  await stack.redis.restartEmpty();
  await waitForLogin(flows, user.id, user.password);
  const replay = await flows.api.rest('/v2/auth/auth-user-with-vp', { vp });
  const retried = await flows.transfer(params);
  const polls = await Promise.all(
    [0, 1].map(() => flows.api.rest('/v2/auth/auth-user-result-by-app', { requestId }, site)),
  );
  const sameId =
    Boolean(sent.result?.TransactionID) &&
    sent.result?.TransactionID === retried.result?.TransactionID;
  const afterLoss = {
    vp: `${firstLogin.status} then ${replay.status}`,
    retry: sameId
      ? 'same TransactionID'
      : `resultCode ${retried.result?.resultCode ?? retried.status}`,
    result: `approved ${approved.status}; polls ${polls
      .map((p) => p.status)
      .sort()
      .join('+')}`,
  };
  return {
    name: 'one-time rules after Redis restarted empty (used VP, identical retry, approved QR login)',
    expected: 'VP 200 then 401; same TransactionID; approved 200, polls 200+400',
    observed: JSON.stringify(afterLoss),
    passed:
      afterLoss.vp === '200 then 401' &&
      sameId &&
      afterLoss.result === 'approved 200; polls 200+400',
  };
}
