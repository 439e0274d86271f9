import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startReplicaStack, type ReplicaStack } from './replica-stack.js';

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
  let stack: ReplicaStack;

  beforeAll(async () => {
    stack = await startReplicaStack({
      'auth-service': 2,
      'did-service': 2,
      'token-rpc': 2,
      'block-rpc': 1,
    });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
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

    // Polled through the gateway (either replica), ten times at once: exactly one result.
    const polls = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(`${gw}/v2/auth/auth-user-result-by-app`, { requestId }, { authorization: siteAuth }),
      ),
    );
    const results = polls.filter((p) => p.status === 200);
    expect(results).toHaveLength(1);
    expect(results[0]!.body).toMatchObject({ userId: DEMO_USER.id, token: expect.any(String) });
  }, 120_000);

  it('sends 50 concurrent transfers from one address over both token-rpc replicas: all mined, no gap', async () => {
    const gw = stack.gatewayUrl;
    const wallet = await ok(gw, 'createAddress', {});
    const startNonce = Number(
      BigInt(await chain(stack.chainUrl, 'eth_getTransactionCount', [wallet.address, 'latest'])),
    );
    const to = '0x000000000000000000000000000000000000bEEF';
    const tokens = stack.replicas['token-rpc']!;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        // Half straight to each replica, so both send from the one address at once.
        transfer(tokens[i % tokens.length]!.url, wallet, to, String(1000 + i)),
      ),
    );
    const failed = answers.filter((a) => a.result?.resultCode !== '200');
    expect(failed).toEqual([]);
    const hashes = answers.map((a) => a.result.TransactionID as string);
    expect(new Set(hashes).size).toBe(50);
    const nonces: number[] = [];
    for (const hash of hashes) {
      let receipt: Json = null;
      for (let i = 0; i < 100 && !receipt; i += 1) {
        receipt = await chain(stack.chainUrl, 'eth_getTransactionReceipt', [hash]);
        if (!receipt) await new Promise((r) => setTimeout(r, 100));
      }
      expect(receipt?.status).toBe('0x1');
      const tx = await chain(stack.chainUrl, 'eth_getTransactionByHash', [hash]);
      nonces.push(Number(BigInt(tx.nonce)));
    }
    nonces.sort((a, b) => a - b);
    expect(nonces).toEqual(Array.from({ length: 50 }, (_, i) => startNonce + i));
  }, 120_000);

  it('routes around a killed replica: every request answered, none reported done that was lost', async () => {
    const gw = stack.gatewayUrl;
    const wallet = await ok(gw, 'createAddress', {});
    const victim = stack.replicas['token-rpc']![1]!;
    const calls: Array<Promise<{ status: number; body: Json }>> = [];
    for (let i = 0; i < 60; i += 1) {
      calls.push(
        post(`${gw}/token`, {
          jsonrpc: '2.0',
          id: i,
          method: 'net_getTempKey',
          params: { address: wallet.address, keyType: 'transfer' },
        }),
      );
      if (i === 20) await stack.kill(victim);
      await new Promise((r) => setTimeout(r, 10));
    }
    const answers = await Promise.all(calls);
    // Every request got an answer in a documented shape (a call cut inside the killed replica is
    // a 502: a POST is never re-sent); after the kill the survivor serves every one.
    for (const a of answers) expect([200, 502]).toContain(a.status);
    const succeeded = answers.filter(
      (a) => a.status === 200 && a.body.result?.resultCode === '200',
    );
    expect(succeeded.length).toBeGreaterThanOrEqual(55);
    expect(answers.slice(30).every((a) => a.status === 200)).toBe(true);
    // Every tempKey reported issued, by either replica, is held in the shared Redis: it signs.
    for (const a of succeeded) {
      const { tempKey } = a.body.result.resultData as { tempKey: string };
      const hashKey = sha256(`${tempKey}|${wallet.secretKey}`);
      const hash = sha256(
        `${wallet.address}|0x000000000000000000000000000000000000bEEF|1|${tempKey}|${hashKey}`,
      );
      const signed = await rpc(gw, 'signData', { from: wallet.address, hash, tempKey, hashKey });
      expect(signed.result?.resultCode).toBe('200');
    }
  }, 120_000);
});
