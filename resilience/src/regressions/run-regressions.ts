import { basic, type RpcAnswer } from '../client/api.js';
import type { Flows } from '../client/flows.js';
import type { RaceOutcome } from '../races/run-races.js';
import type { Stack } from '../stack/start-stack.js';

const SINK = '0x000000000000000000000000000000000000bEEF';

/** `{"a":{"a":…1…}}`, `levels` deep, as text (JSON.stringify could not make it). */
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The findings of the second review (issue 18, items 1–4) as checks against the real stack, so
 * that the suite reproduces each one as a passing check (reported like the races):
 * 1. a nonce lease in flight when Redis stops: clear 503s meanwhile (never a gateway 504 /
 *    -32300), transfers work again within 5 s of Redis's return;
 * 2. after Redis restarts EMPTY: a used VP does not log in again, an identical transfer retry
 *    gets its TransactionID, an approved web-site login is still handed out once;
 * 3. control characters in ids (auth-user id, HTTP Basic client id): 400, never 500 / 503;
 * 4. JSON nested 20,000–50,000 levels to verify-vc, verify-vp, auth-user-with-vp: 400.
 */
export async function runRegressions(stack: Stack, flows: Flows): Promise<RaceOutcome[]> {
  const outcomes: RaceOutcome[] = [];
  const user = stack.accounts.users[2]!;
  const token = await flows.login(user.id, user.password);
  const client = stack.accounts.client;
  const site = basic(client.id, client.secret);

  // 3. Control characters in ids.
  const nulId = await flows.api.rest('/v2/auth/auth-user', {
    id: `${user.id}\u0000`,
    password: 'x',
  });
  const nulClient = await flows.api.rest(
    '/v2/auth/auth-user-by-app',
    { requestId: client.prefix },
    basic(`${client.id}\u0000`, client.secret),
  );
  const ids = [nulId.status, nulClient.status];
  outcomes.push({
    name: 'NUL in an auth-user id and in a Basic client id',
    expected: '400, 400',
    observed: ids.join(', '),
    passed: ids.every((s) => s === 400),
  });

  // 4. Deep nesting, refused before any recursive walk.
  const deep = await Promise.all([
    flows.api.raw('/v2/did/verify-vc', `{"credentialSubject":${nested(20_000)}}`),
    flows.api.raw('/v2/did/verify-vp', `{"holder":${nested(20_000)}}`),
    flows.api.raw('/v2/auth/auth-user-with-vp', `{"vp":${nested(50_000)}}`),
  ]);
  const depths = deep.map((a) => a.status);
  outcomes.push({
    name: 'JSON nested 20,000 / 50,000 levels (verify-vc, verify-vp, auth-user-with-vp)',
    expected: '400, 400, 400',
    observed: depths.join(', '),
    passed: depths.every((s) => s === 400),
  });

  // 2. One-time rules across a Redis that restarts empty.
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
  outcomes.push({
    name: 'one-time rules after Redis restarted empty (used VP, identical retry, approved QR login)',
    expected: 'VP 200 then 401; same TransactionID; approved 200, polls 200+400',
    observed: JSON.stringify(afterLoss),
    passed:
      afterLoss.vp === '200 then 401' &&
      sameId &&
      afterLoss.result === 'approved 200; polls 200+400',
  });

  // 1. A nonce lease in flight when Redis stops.
  const sender = await flows.createAddress();
  await flows.fund(stack.chain, sender.address);
  const prepared = await Promise.all(
    Array.from({ length: 6 }, (_, i) => flows.transferParams(sender, SINK, String(10 + i))),
  );
  const inFlight = flows.transfer(prepared[0]!); // taking its lease as Redis goes away
  await stack.redis.stop();
  const during: RpcAnswer[] = [];
  for (const p of prepared.slice(1)) {
    during.push(await flows.transfer(p));
    await sleep(200);
  }
  await inFlight;
  await stack.redis.start();
  const back = Date.now();
  let recoveredMs: number | null = null;
  while (Date.now() - back < 15_000) {
    try {
      const next = await flows.transfer(await flows.transferParams(sender, SINK, '99'));
      if (next.result?.resultCode === '200') {
        recoveredMs = Date.now() - back;
        break;
      }
    } catch {
      // tempKey / signData still refused: Redis is coming back
    }
    await sleep(200);
  }
  const codes = during.map((a) =>
    a.status === 200 ? (a.result?.resultCode ?? 'rpc error') : `HTTP ${a.status}`,
  );
  outcomes.push({
    name: 'a nonce lease in flight when Redis stops',
    expected: 'resultCode 503 meanwhile (no gateway 504 / -32300); transfers again < 5 s after',
    observed: `meanwhile ${codes.join(',')}; transfers again after ${recoveredMs === null ? '> 15 s' : `${recoveredMs} ms`}`,
    passed: codes.every((c) => c === '503') && recoveredMs !== null && recoveredMs < 5_000,
  });
  return outcomes;
}

/** After Redis came back: the first correct login shows the stack serves again. */
async function waitForLogin(flows: Flows, id: string, password: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if ((await flows.api.login(id, password)).status === 200) return;
    await sleep(200);
  }
}
