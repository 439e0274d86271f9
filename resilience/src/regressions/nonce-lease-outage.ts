import { waitFor } from '@itp/testing/wait-for';
import type { RpcAnswer } from '../client/api.js';
import type { Flows, Wallet } from '../client/flows.js';
import type { RaceOutcome } from '../races/run-races.js';
import type { Stack } from '../stack/start-stack.js';
import { SINK, flowsAs, rpcOutcome, sleep, withRedis } from './support.js';

const IP = '203.0.113.33';
/** Distinct senders whose lease is held when Redis stops. */
const SENDERS = 3;
/** Transfers per sender sent while Redis is down, spread over the outage. */
const DURING_PER_SENDER = 3;
/** An answer slower than this during the outage is no "quick 503" (the gateway gives up at 30 s). */
const QUICK_MS = 10_000;
/** After Redis is back, every sender must transfer again within this. */
const RECOVERY_LIMIT_MS = 5_000;
/** How long the check keeps trying after Redis is back (a slower recovery reads "> 15 s"). */
const RECOVERY_WINDOW_MS = 15_000;
/** More than the gateway's 30 s upstream timeout: a gateway 504 is seen as such, a hang as none. */
const ANSWER_TIMEOUT_MS = 40_000;
/** How long the in-flight transfers may take to be seen holding their lease. */
const LEASE_SEEN_WITHIN_MS = 2_500;

/** Default Redis downtime: the review's 10 s (see runRegressions' options). */
export const LEASE_REDIS_DOWN_MS = 10_000;

const leaseKey = (address: string) => `token:nonce:lease:${address.toLowerCase()}`;

/** Polls Redis until every address's nonce lease exists; false when not all are seen in time. */
async function waitForLeases(url: string, addresses: string[], withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  return withRedis(url, (redis) =>
    waitFor(async () => (await redis.exists(...addresses.map(leaseKey))) === addresses.length, {
      what: `the nonce leases of ${addresses.length} addresses`,
      timeoutMs: deadline - Date.now(),
    }).then(
      () => true,
      () => false,
    ),
  );
}

/** Remaining TTL (ms) of each address's lease right after Redis came back; absent ones left out. */
async function leasesLeft(url: string, addresses: string[]): Promise<number[]> {
  try {
    return await withRedis(url, async (redis) => {
      const ttls = await Promise.all(addresses.map((a) => redis.pttl(leaseKey(a))));
      return ttls.filter((ms) => ms > 0 || ms === -1);
    });
  } catch {
    return [];
  }
}

/** A transfer of `sender`'s (fresh tempKey) until the first "200"; ms after `since`, or null. */
async function firstTransfer(
  flows: Flows,
  sender: Wallet,
  since: number,
  deadline: number,
): Promise<number | null> {
  return waitFor(
    async () => {
      // A throw (net_getTempKey / signData still refused: the services reconnect to Redis) is a
      // "not yet", as a transfer not answered "200".
      const params = await flows.transferParams(sender, SINK, '7');
      const answer = await flows.api.rpc('/token', 'transfer', params, deadline - Date.now());
      return answer.result?.resultCode === '200';
    },
    { what: `a transfer of ${sender.address}`, timeoutMs: deadline - Date.now(), intervalMs: 100 },
  ).then(
    () => Date.now() - since,
    () => null,
  );
}

/**
 * Review item 1: nonce leases HELD when Redis stops. The chain is paused, so that a transfer of
 * each of SENDERS distinct senders takes its nonce lease and hangs on the node (seen in Redis);
 * then Redis is stopped for `redisDownMs` with those leases held: their release fails. Meanwhile
 * more transfers of the same senders must be answered resultCode "503" quickly (never a gateway
 * 504 / -32300, never a hang); the chain resumes, Redis starts, and a transfer of EACH sender
 * must succeed within 5 s. The old code's leases lived their full 60 s TTL (and a SET NX replayed
 * at reconnect took one nobody held): sends waited 30 s for them, and the gateway gave up first.
 */
export async function checkNonceLeaseOutage(
  stack: Stack,
  flows: Flows,
  redisDownMs: number = LEASE_REDIS_DOWN_MS,
): Promise<RaceOutcome> {
  const own = flowsAs(flows, IP);
  const senders = await Promise.all(Array.from({ length: SENDERS }, () => own.createAddress()));
  await Promise.all(senders.map((s) => own.fund(stack.chain, s.address)));
  // Every tempKey before the faults: net_getTempKey and signData need Redis.
  const prepared = await Promise.all(
    senders.map((s) =>
      Promise.all(
        Array.from({ length: 1 + DURING_PER_SENDER }, (_, i) =>
          own.transferParams(s, SINK, String(20 + i)),
        ),
      ),
    ),
  );
  const addresses = senders.map((s) => s.address);

  stack.chain.pause();
  let chainPaused = true;
  let redisDown = false;
  try {
    let settled = 0;
    const inFlight = prepared.map((p) =>
      own.api.rpc('/token', 'transfer', p[0], ANSWER_TIMEOUT_MS).finally(() => {
        settled += 1;
      }),
    );
    const leasesSeen = await waitForLeases(stack.redis.url, addresses, LEASE_SEEN_WITHIN_MS);
    await stack.redis.stop();
    redisDown = true;
    const stoppedAt = Date.now();
    // Taken after the stop completed: a transfer still unanswered then held its lease across it.
    const heldAcrossStop = SENDERS - settled;

    const during = await Promise.all(
      prepared.map(async (p) => {
        const answers: RpcAnswer[] = [];
        for (const [i, params] of p.slice(1).entries()) {
          await sleep(stoppedAt + (i * redisDownMs) / DURING_PER_SENDER - Date.now());
          answers.push(await own.api.rpc('/token', 'transfer', params, ANSWER_TIMEOUT_MS));
        }
        return answers;
      }),
    );
    const flight = await Promise.all(inFlight);
    await sleep(stoppedAt + redisDownMs - Date.now());

    stack.chain.resume();
    chainPaused = false;
    await stack.redis.start();
    redisDown = false;
    const back = Date.now();
    const [left, recovered] = await Promise.all([
      leasesLeft(stack.redis.url, addresses),
      Promise.all(senders.map((s) => firstTransfer(own, s, back, back + RECOVERY_WINDOW_MS))),
    ]);

    const duringAll = during.flat();
    const codes = duringAll.map(rpcOutcome);
    const slowest = Math.max(...duringAll.map((a) => a.ms));
    const flightCodes = flight.map(rpcOutcome);
    const clear = (c: string) => c !== 'HTTP 504' && c !== '-32300' && !c.startsWith('no answer');
    const times = recovered.map((ms) =>
      ms === null ? `> ${RECOVERY_WINDOW_MS / 1000} s` : `${ms} ms`,
    );
    const observed = [
      `leases held at the stop ${leasesSeen ? heldAcrossStop : 0}/${SENDERS}`,
      `Redis down ${Math.round(redisDownMs / 100) / 10} s`,
      `in flight ${flightCodes.join(',')}`,
      `meanwhile ${codes.join(',')} (slowest ${slowest} ms)`,
      `leases left after the restart ${left.length}${left.length ? ` (up to ${Math.max(...left)} ms)` : ''}`,
      `each sender transfers again after ${times.join(', ')}`,
    ].join('; ');
    return {
      name: 'nonce leases held (chain paused) by transfers of 3 senders when Redis stops',
      expected: `resultCode 503 meanwhile, each < ${QUICK_MS / 1000} s (no gateway 504 / -32300 / hang); every sender transfers again < ${RECOVERY_LIMIT_MS / 1000} s after Redis is back`,
      observed,
      passed:
        leasesSeen &&
        heldAcrossStop === SENDERS &&
        flightCodes.every(clear) &&
        codes.every((c) => c === '503') &&
        slowest < QUICK_MS &&
        recovered.every((ms) => ms !== null && ms < RECOVERY_LIMIT_MS),
    };
  } finally {
    // Whatever failed above, the stack is left whole for the rest of the suite.
    if (chainPaused) stack.chain.resume();
    if (redisDown) await stack.redis.start();
  }
}
