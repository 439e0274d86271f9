import { HDNodeWallet } from 'ethers';
import { basic, type Json } from '../client/api.js';
import type { Flows } from '../client/flows.js';
import { query } from '../stack/records.js';
import type { Stack } from '../stack/start-stack.js';

export interface RaceOutcome {
  name: string;
  /** What must hold, e.g. "1 transaction". */
  expected: string;
  /** What happened, e.g. "1 transaction; answers: 200×20". */
  observed: string;
  passed: boolean;
}

const histogram = (values: string[]): string =>
  Object.entries(
    values.reduce<Record<string, number>>((h, v) => ({ ...h, [v]: (h[v] ?? 0) + 1 }), {}),
  )
    .map(([v, n]) => `${v}×${n}`)
    .join(', ');

/**
 * Five races, each against the real stack: concurrent identical requests where
 * exactly one may take effect.
 */
export async function runRaces(stack: Stack, flows: Flows): Promise<RaceOutcome[]> {
  const outcomes: RaceOutcome[] = [];
  const user = stack.accounts.users[1]!;
  const token = await flows.login(user.id, user.password);

  // 1. One tempKey used 20× at once: one transaction, every answer the same TransactionID.
  const payer = await flows.createAddress();
  await flows.fund(stack.chain, payer.address);
  const params = await flows.transferParams(
    payer,
    '0x000000000000000000000000000000000000bEEF',
    '1000',
  );
  const sent = await Promise.all(Array.from({ length: 20 }, () => flows.transfer(params)));
  const ids = new Set(sent.map((a) => a.result?.TransactionID).filter(Boolean));
  const rows = await query<{ n: string }>(
    stack.databaseUrl,
    `SELECT count(*) AS n FROM token_transactions WHERE lower(from_address) = lower($1) AND kind = 'transfer'`,
    [payer.address],
  );
  const txCount = Number(rows[0]?.n);
  outcomes.push({
    name: 'one tempKey, 20 identical transfers at once',
    expected: '1 transaction, 1 TransactionID',
    observed: `${txCount} transaction(s), ${ids.size} TransactionID(s); answers: ${histogram(sent.map((a) => a.result?.resultCode ?? `${a.status}`))}`,
    passed: txCount === 1 && ids.size === 1,
  });

  // A holder DID bound to the user, for the VP races.
  const holder = await flows.createAddress();
  const did = await flows.createDid(holder, 'race-phone', token);
  const holderDid = (did.body as { did?: string } | undefined)?.did;
  if (!holderDid) throw new Error(`create-did: ${did.status} ${did.text}`);

  // 2. One approved QR request polled 10× at once: one result.
  const site = basic(stack.accounts.client.id, stack.accounts.client.secret);
  const opened = await flows.api.rest(
    '/v2/auth/auth-user-by-app',
    { requestId: `${stack.accounts.client.prefix}login?`, waitTime: 60 },
    site,
  );
  const requestId = (opened.body as { requestId?: string } | undefined)?.requestId;
  if (!requestId) throw new Error(`auth-user-by-app: ${opened.status} ${opened.text}`);
  const approve = await flows.api.rest('/v2/auth/auth-user-with-vp', {
    vp: await flows.loginVp(token, holderDid),
    requestId,
  });
  const polls = await Promise.all(
    Array.from({ length: 10 }, () =>
      flows.api.rest('/v2/auth/auth-user-result-by-app', { requestId }, site),
    ),
  );
  for (const p of polls) {
    const t = (p.body as { token?: string } | undefined)?.token;
    if (t) flows.ledger.add('jwt', t);
  }
  const won = polls.filter((p) => p.status === 200).length;
  outcomes.push({
    name: 'one approved QR login request polled 10× at once',
    expected: '1 result (200), the others 400',
    observed: `approval ${approve.status}; polls: ${histogram(polls.map((p) => String(p.status)))}`,
    passed:
      approve.status === 200 &&
      won === 1 &&
      polls.every((p) => p.status === 200 || p.status === 400),
  });

  // 3. One VP sent 20× at once: one login.
  const vp = await flows.loginVp(token, holderDid);
  const logins = await Promise.all(
    Array.from({ length: 20 }, () => flows.api.rest('/v2/auth/auth-user-with-vp', { vp })),
  );
  for (const l of logins) {
    const t = (l.body as { token?: string } | undefined)?.token;
    if (t) flows.ledger.add('jwt', t);
  }
  outcomes.push({
    name: 'one VP sent 20× at once to auth-user-with-vp',
    expected: '1 login (200), the others 401 replayed',
    observed: `answers: ${histogram(logins.map((l) => String(l.status)))}`,
    passed:
      logins.filter((l) => l.status === 200).length === 1 &&
      logins.every((l) => l.status === 200 || l.status === 401),
  });

  // 4. Concurrent create-did for one address: one DID, every answer the same record.
  const owner = await flows.createAddress();
  const dids = await Promise.all(
    Array.from({ length: 10 }, () => flows.createDid(owner, 'race-same', token)),
  );
  const answered = new Set(
    dids.map((d) => (d.body as { did?: string } | undefined)?.did).filter(Boolean),
  );
  const stored = await query<{ n: string }>(
    stack.databaseUrl,
    `SELECT count(*) AS n FROM did_veramo.identifier WHERE lower(did) = lower($1)`,
    [`did:ethr:${owner.address}`],
  );
  outcomes.push({
    name: 'create-did for one address 10× at once',
    expected: '1 DID, every answer 200 with it',
    observed: `${stored[0]?.n} stored, ${answered.size} distinct DID(s); answers: ${histogram(dids.map((d) => String(d.status)))}`,
    passed:
      Number(stored[0]?.n) === 1 && answered.size === 1 && dids.every((d) => d.status === 200),
  });

  // 5. Concurrent importAddress of one mnemonic: one wallet row.
  const phrase = HDNodeWallet.createRandom().mnemonic?.phrase ?? '';
  flows.noteMnemonic(phrase);
  const imports = await Promise.all(
    Array.from({ length: 10 }, () =>
      flows.api.rpc('/token', 'importAddress', { mnemonic: phrase }),
    ),
  );
  for (const i of imports) {
    const data = i.result?.resultData as Json | undefined;
    if (i.result?.resultCode === '200' && data) flows.noteWallet(data);
  }
  const address = HDNodeWallet.fromPhrase(phrase).address;
  const walletRows = await query<{ n: string }>(
    stack.databaseUrl,
    `SELECT count(*) AS n FROM wallet_keys WHERE lower(address) = lower($1)`,
    [address],
  );
  const addresses = new Set(
    imports.map((i) => (i.result?.resultData as Json | undefined)?.address).filter(Boolean),
  );
  outcomes.push({
    name: 'importAddress of one mnemonic 10× at once',
    expected: '1 wallet row, every answer 200 with the same address',
    observed: `${walletRows[0]?.n} row(s), ${addresses.size} address(es); answers: ${histogram(imports.map((i) => i.result?.resultCode ?? String(i.status)))}`,
    passed:
      Number(walletRows[0]?.n) === 1 &&
      addresses.size === 1 &&
      imports.every((i) => i.result?.resultCode === '200'),
  });
  return outcomes;
}
