import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { Api, bearer, type Json } from '../client/api.js';
import type { Flows } from '../client/flows.js';
import type { Stack } from '../stack/start-stack.js';
import type { RaceOutcome } from './run-races.js';

/** did-service's user-status cache (USER_STATUS_CACHE_MS, its default): the old JWT's grace there. */
const DID_STATUS_CACHE_MS = 5_000;
/** How long the load goes on after the reset answered: past did-service's cache, with margin. */
const AFTER_RESET_MS = DID_STATUS_CACHE_MS + 3_000;
/** Where the user logs in after the reset (not the address of the refused attempts). */
const OWNER_IP = '203.0.113.31';
/** Pause between two requests of one worker: a steady load, not a flood of one core. */
const PACE_MS = 40;

interface Sent {
  at: number;
  status: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function histogram(sent: Sent[]): string {
  const counts = new Map<number, number>();
  for (const s of sent) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${status}×${n}`).join(', ') || 'none';
}

/**
 * A password reset under load (docs/api.md §12): the user's old JWT keeps hammering auth-service
 * and did-service, the intruder's linked address keeps signing in, prepared VPs of credentials
 * issued before the reset keep logging in — while the operator's CLI resets the password. From
 * the reset's answer on, nothing of that may succeed (did-service: after its status cache).
 */
export async function runAccountRaces(
  stack: Stack,
  flows: Flows,
  user: { id: string; password: string },
): Promise<RaceOutcome[]> {
  const token = await flows.login(user.id, user.password);
  const holder = await flows.createAddress();
  const did = await flows.createDid(holder, 'account-race-phone', token);
  const holderDid = (did.body as { did?: string } | undefined)?.did;
  if (!holderDid) throw new Error(`create-did: ${did.status} ${did.text}`);
  const key = generatePrivateKey();
  flows.ledger.add('privateKey', key);
  const account = privateKeyToAccount(key);
  const signed = async () => {
    const issued = (await flows.api.rest('/v2/auth/siwe/nonce', {})).body as {
      domain: string;
      uri: string;
      chainId: number;
      nonce: string;
    };
    const message = createSiweMessage({
      domain: issued.domain,
      address: account.address,
      uri: issued.uri,
      version: '1',
      chainId: issued.chainId,
      nonce: issued.nonce,
      issuedAt: new Date(),
    });
    return { message, signature: await account.signMessage({ message }) };
  };
  const linked = await flows.api.rest('/v2/auth/link-address', await signed(), bearer(token));
  if (linked.status !== 200) throw new Error(`link-address: ${linked.status} ${linked.text}`);
  // VPs of credentials issued before the reset, one per VP login (each VP logs in once).
  const vps: Json[] = [];
  for (let i = 0; i < 12; i++) vps.push(await flows.loginVp(token, holderDid));

  const accountReads: Sent[] = [];
  const didReads: Sent[] = [];
  const siweLogins: Sent[] = [];
  const vpLogins: Sent[] = [];
  let stop = false;
  const worker = async (record: Sent[], call: () => Promise<number>) => {
    while (!stop) {
      const at = Date.now();
      record.push({ at, status: await call().catch(() => 0) });
      await sleep(PACE_MS);
    }
  };
  const auth = bearer(token);
  const workers = [
    worker(
      accountReads,
      async () => (await flows.api.rest('/v2/auth/account', undefined, auth)).status,
    ),
    worker(
      accountReads,
      async () => (await flows.api.rest('/v2/auth/account', undefined, auth)).status,
    ),
    worker(
      didReads,
      async () => (await flows.api.rest('/v2/did/credentials', undefined, auth)).status,
    ),
    worker(
      siweLogins,
      async () => (await flows.api.rest('/v2/auth/auth-user-with-siwe', await signed())).status,
    ),
    (async () => {
      for (const vp of vps) {
        if (stop) return;
        const at = Date.now();
        const answer = await flows.api.rest('/v2/auth/auth-user-with-vp', { vp });
        const t = (answer.body as { token?: string } | undefined)?.token;
        if (t) flows.ledger.add('jwt', t);
        vpLogins.push({ at, status: answer.status });
        await sleep(AFTER_RESET_MS / vps.length);
      }
    })(),
  ];
  await sleep(1_000);
  const newPassword = `pw-reset-${Math.random().toString(36).slice(2)}-Aa1`;
  flows.ledger.add('password', newPassword);
  await stack.operator(['users', 'reset-password', user.id, '--password-stdin'], newPassword);
  const resetAnswered = Date.now();
  await sleep(AFTER_RESET_MS);
  stop = true;
  await Promise.all(workers);

  const after = (sent: Sent[], from: number) => sent.filter((s) => s.at >= from);
  const before = (sent: Sent[]) => sent.filter((s) => s.at + 500 < resetAnswered);
  const outcome = (
    name: string,
    sent: Sent[],
    from: number,
    succeeded: (s: Sent) => boolean,
  ): RaceOutcome => {
    const late = after(sent, from);
    return {
      name,
      expected: 'some successes before the reset, none from its answer on',
      observed: `before: ${histogram(before(sent))}; after: ${histogram(late)}`,
      passed: before(sent).some(succeeded) && late.length > 0 && !late.some(succeeded),
    };
  };
  const ok = (s: Sent) => s.status === 200;
  // From another address: the refused sign-ins above used up this address's failure allowance.
  const owner = new Api(flows.api.base, OWNER_IP);
  const relogin = await owner.login(user.id, newPassword);
  const oldPassword = await owner.login(user.id, user.password);
  return [
    outcome('reset under load: the old JWT at auth-service', accountReads, resetAnswered, ok),
    outcome(
      'reset under load: the old JWT at did-service (after its user-status cache)',
      didReads,
      resetAnswered + DID_STATUS_CACHE_MS,
      ok,
    ),
    outcome(
      'reset under load: the linked address (Sign-In with Ethereum)',
      siweLogins,
      resetAnswered,
      ok,
    ),
    outcome(
      'reset under load: credentials issued before it (VP login)',
      vpLogins,
      resetAnswered,
      ok,
    ),
    {
      name: 'reset under load: the new password logs in, the old one not',
      expected: 'new 200, old 401',
      observed: `new ${relogin.status}, old ${oldPassword.status}`,
      passed: relogin.status === 200 && oldPassword.status === 401,
    },
  ];
}
