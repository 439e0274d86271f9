import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { DEV_CHAIN, deployDidRegistry, startAnvil, type RunningAnvil } from '@itp/dev-chain';
import { startStack, type Stack } from '@itp/harness';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@itp/testing';
import { waitFor } from '@itp/testing/wait-for';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers, checked field by field */
type Json = any;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const DEMO_SITE = { id: 'demo-site', secret: 'demo-site-secret' };
const DEMO_USER = { id: 'demo', password: 'demo-password' };
const siteAuth = `Basic ${Buffer.from(`${DEMO_SITE.id}:${DEMO_SITE.secret}`).toString('base64')}`;

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function rpc(base: string, method: string, params: unknown): Promise<Json> {
  const { status, body } = await post(`${base}/token`, { jsonrpc: '2.0', id: 1, method, params });
  expect(status).toBe(200);
  return body;
}

async function ok(base: string, method: string, params: unknown): Promise<Json> {
  const answer = await rpc(base, method, params);
  if (answer.result?.resultCode !== '200') {
    throw new Error(`${method} failed: ${JSON.stringify(answer)}`);
  }
  return answer.result.resultData;
}

async function chain(url: string, method: string, params: unknown[]): Promise<Json> {
  const { body } = await post(url, { jsonrpc: '2.0', id: 1, method, params });
  return body.result;
}

/** tempKey → hashKey → signData → transfer, against one token-rpc base URL. */
async function transfer(
  base: string,
  wallet: { address: string; secretKey: string },
  to: string,
  amount: string,
): Promise<Json> {
  const { tempKey } = await ok(base, 'net_getTempKey', {
    address: wallet.address,
    keyType: 'transfer',
  });
  const hashKey = sha256(`${tempKey}|${wallet.secretKey}`);
  const hash = sha256(`${wallet.address}|${to}|${amount}|${tempKey}|${hashKey}`);
  const signature = await ok(base, 'signData', { from: wallet.address, hash, tempKey, hashKey });
  return rpc(base, 'transfer', { from: wallet.address, to, amount, tempKey, hashKey, signature });
}

/**
 * Issue 12, "Scale-out, proven": two instances each of auth-service, did-service and token-rpc,
 * one block-rpc and one gateway balancing over them, on one Redis and one PostgreSQL, all
 * started at the same moment.
 */
describe('two replicas of each service behind one gateway (real Redis, PostgreSQL, chain)', () => {
  let stack: Stack;
  let anvil: RunningAnvil | undefined;
  let db: TestDatabase | undefined;

  beforeAll(async () => {
    // A chain of its own (development mode: new addresses are funded from its account #0).
    anvil = await startAnvil({ chainId: DEV_CHAIN.chainId });
    db = await createTestDatabase();
    stack = await startStack({
      replicas: { 'auth-service': 2, 'did-service': 2, 'token-rpc': 2, 'block-rpc': 1 },
      infra: {
        redisUrl: testRedisUrl(),
        databaseUrl: db.url,
        chainUrl: anvil.url,
        didRegistryAddress: await deployDidRegistry(
          anvil.url,
          DEV_CHAIN.devOnlyAccount0.privateKey,
        ),
      },
      // The hand-out-once race of web-site logins is what the QR test polls for: no poll
      // interval (its 429 slow_down would answer the concurrent polls before the race).
      env: { 'auth-service': { LOGIN_POLL_MIN_INTERVAL_MS: '0' } },
    });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await anvil?.stop();
    await db?.drop();
  }, 60_000);

  it('creates the issuer and verifier DIDs and runs each migration exactly once', async () => {
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const aliases = await client.query<{ alias: string; n: string }>(
        `select alias, count(*) as n from did_veramo.identifier group by alias order by alias`,
      );
      expect(aliases.rows).toEqual([
        { alias: 'itp-issuer', n: '1' },
        { alias: 'itp-verifier', n: '1' },
      ]);
      const migrationTables = await client.query<{ table_schema: string; table_name: string }>(
        `select table_schema, table_name from information_schema.tables
          where table_schema in ('public', 'did_veramo') and table_name like '%migration%'
          order by table_name`,
      );
      expect(migrationTables.rows.length).toBeGreaterThan(0);
      for (const { table_schema, table_name } of migrationTables.rows) {
        const columns = await client.query<{ column_name: string }>(
          `select column_name from information_schema.columns
            where table_schema = $1 and table_name = $2`,
          [table_schema, table_name],
        );
        const nameColumn = columns.rows.find((c) => c.column_name === 'name')?.column_name;
        if (!nameColumn) continue; // a lock table
        const dupes = await client.query(
          `select name, count(*) from "${table_schema}"."${table_name}" group by name having count(*) > 1`,
        );
        expect({ table: table_name, duplicates: dupes.rows }).toEqual({
          table: table_name,
          duplicates: [],
        });
      }
    } finally {
      await client.end();
    }
  });

  it('runs a QR login created on one replica, approved through another, polled through the gateway', async () => {
    const [auth0, auth1] = stack.replicas['auth-service']!;
    const gw = stack.gatewayUrl;
    // The web site asks replica 0 for a login request.
    const created = await post(
      `${auth0!.url}/v2/auth/auth-user-by-app`,
      { requestId: 'http://localhost:8080/?', waitTime: 120 },
      { authorization: siteAuth },
    );
    expect(created.status).toBe(200);
    const { requestId } = created.body as { requestId: string };

    // The phone app: password login, wallet, DID, credential, presentation — through the gateway.
    const login = await post(`${gw}/v2/auth/auth-user`, DEMO_USER);
    expect(login.status).toBe(200);
    const bearer = { authorization: `Bearer ${login.body.token as string}` };
    const wallet = await ok(gw, 'createAddress', {});
    const did = await post(
      `${gw}/v2/did/create-did`,
      { alias: 'phone', address: wallet.address, secretKey: wallet.secretKey },
      bearer,
    );
    expect(did.status).toBe(200);
    const issuers = (await (await fetch(`${gw}/v2/did/issuers`)).json()) as Json[];
    const verifiers = (await (await fetch(`${gw}/v2/did/verifiers`)).json()) as Json[];
    const vc = await post(
      `${gw}/v2/did/create-vc`,
      { holder: did.body.did, issuer: issuers[0].did, userInfo: { name: 'Demo User' } },
      bearer,
    );
    expect(vc.status).toBe(200);
    const vp = await post(
      `${gw}/v2/did/create-vp`,
      { holder: did.body.did, verifier: verifiers[0].did, credentials: [vc.body] },
      bearer,
    );
    expect(vp.status).toBe(200);

    // Approved through replica 1.
    const approved = await post(`${auth1!.url}/v2/auth/auth-user-with-vp`, {
      vp: vp.body,
      requestId,
    });
    expect(approved.status).toBe(200);
    expect(approved.body.userId).toBe(DEMO_USER.id);

    // Polled through the gateway (either replica), ten times at once, with no poll interval:
    // the hand-out-once race itself — exactly one result, the nine others 400 (handed out),
    // none a 429 slow_down that would end the race before it starts.
    const polls = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(`${gw}/v2/auth/auth-user-result-by-app`, { requestId }, { authorization: siteAuth }),
      ),
    );
    const results = polls.filter((p) => p.status === 200);
    expect(results).toHaveLength(1);
    expect(results[0]!.body).toMatchObject({ userId: DEMO_USER.id, token: expect.any(String) });
    expect(polls.map((p) => p.status).sort()).toEqual([200, ...Array<number>(9).fill(400)]);
  }, 120_000);

  it('sends 60 concurrent transfers from three addresses over both token-rpc replicas: all mined, no gap', async () => {
    const gw = stack.gatewayUrl;
    const tokens = stack.replicas['token-rpc']!;
    const to = '0x000000000000000000000000000000000000bEEF';
    const senders = await Promise.all([0, 1, 2].map(() => ok(gw, 'createAddress', {})));
    const startNonces = await Promise.all(
      senders.map(async (w) =>
        Number(
          BigInt(await chain(stack.chainUrl, 'eth_getTransactionCount', [w.address, 'latest'])),
        ),
      ),
    );
    // Each address sends 20 at once, alternately straight to each replica: both replicas send
    // from every address at the same moments (the shared nonce lease is what is tested).
    const sends = senders.flatMap((wallet, s) =>
      Array.from({ length: 20 }, (_, i) => ({
        sender: s,
        answer: transfer(tokens[(i + s) % tokens.length]!.url, wallet, to, String(1000 + i)),
      })),
    );
    const answers = await Promise.all(sends.map((x) => x.answer));
    expect(answers.filter((a) => a.result?.resultCode !== '200')).toEqual([]);
    const hashes = answers.map((a) => a.result.TransactionID as string);
    expect(new Set(hashes).size).toBe(60);
    const noncesBySender: number[][] = [[], [], []];
    for (const [k, hash] of hashes.entries()) {
      const receipt = await waitFor(
        () => chain(stack.chainUrl, 'eth_getTransactionReceipt', [hash]),
        { what: `the receipt of ${hash}`, intervalMs: 25 },
      );
      expect(receipt?.status).toBe('0x1');
      const tx = await chain(stack.chainUrl, 'eth_getTransactionByHash', [hash]);
      noncesBySender[sends[k]!.sender]!.push(Number(BigInt(tx.nonce)));
    }
    noncesBySender.forEach((nonces, s) => {
      nonces.sort((a, b) => a - b);
      expect(nonces).toEqual(Array.from({ length: 20 }, (_, i) => startNonces[s]! + i));
    });
  }, 180_000);

  it('routes around a killed replica: transfers keep working, none reported done that was lost', async () => {
    const gw = stack.gatewayUrl;
    const wallet = await ok(gw, 'createAddress', {});
    const victim = stack.replicas['token-rpc']![1]!;
    const to = '0x000000000000000000000000000000000000bEEF';
    const answers: Array<Promise<Json | { failed: string }>> = [];
    for (let i = 0; i < 30; i += 1) {
      // Whole transfers (tempKey, signData, transfer) through the gateway: state-changing calls
      // in flight when a replica dies, not only tempKeys.
      answers.push(
        transfer(gw, wallet, to, String(2000 + i)).catch((err: unknown) => ({
          failed: String(err),
        })),
      );
      if (i === 10) await stack.kill(victim);
      // Transfers spread over time, so that some are in flight when the replica dies (the load's
      // shape: a real duration, not a wait).
      await new Promise((r) => setTimeout(r, 20));
    }
    const settled = await Promise.all(answers);
    const done = settled.filter((a) => (a as Json).result?.resultCode === '200') as Json[];
    // A transfer cut inside the killed replica is answered (502 from the gateway, or a
    // documented failure of a step): never a hang, never a 500.
    for (const a of settled) {
      expect(JSON.stringify(a)).not.toMatch(/"resultCode":"500"|Internal error/);
    }
    expect(done.length).toBeGreaterThanOrEqual(15);
    // After the kill the survivor serves every transfer.
    expect(settled.slice(15).every((a) => (a as Json).result?.resultCode === '200')).toBe(true);
    // Every transfer reported done is on the chain: none was lost.
    for (const a of done) {
      const receipt = await waitFor(
        () => chain(stack.chainUrl, 'eth_getTransactionReceipt', [a.result.TransactionID]),
        { what: `the receipt of ${String(a.result.TransactionID)}`, intervalMs: 25 },
      );
      expect(receipt?.status).toBe('0x1');
    }
    // did-service's replicas call token-rpc through its balanced address: with replica 1 dead,
    // create-did still works from every did-service replica.
    const login = await post(`${gw}/v2/auth/auth-user`, DEMO_USER);
    const bearer = { authorization: `Bearer ${login.body.token as string}` };
    for (const did of stack.replicas['did-service']!) {
      const w = await ok(gw, 'createAddress', {});
      const created = await post(
        `${did.url}/v2/did/create-did`,
        { alias: `after-kill-${did.index}`, address: w.address, secretKey: w.secretKey },
        bearer,
      );
      expect({ replica: did.index, status: created.status }).toEqual({
        replica: did.index,
        status: 200,
      });
    }
  }, 180_000);
});
