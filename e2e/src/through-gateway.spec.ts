/**
 * The setups every feature suite (`./suites/`) runs against through the gateway, one after the
 * other in this one file (each starts its whole stack in its beforeAll and stops it in its
 * afterAll, so never two at once):
 *
 * 1. one instance of each service (and the browser's view of the /demo/site OpenID4VP page,
 *    which no replica count changes);
 * 2. two instances each of auth-service, did-service and token-rpc, one block-rpc and one
 *    gateway balancing over them, on one Redis and one PostgreSQL database, all started at the
 *    same moment: every suite, then what only several replicas can show (each start-up step done
 *    once, a login spanning replicas, a replica killed under load).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { waitFor } from '@itp/testing/wait-for';
import {
  DEMO_SITE,
  DEMO_USER,
  bearerOfDemoUser,
  credentialAndPresentation,
  newWallet,
} from './flows.js';
import { basicAuth, chainCall, post, transfer, type Json } from './http.js';
import { startGatewaySetup, type GatewaySetup } from './gateway-setup.js';
import { demoOid4vpBrowserSuite } from './suites/demo-oid4vp-browser.suite.js';
import { SUITES } from './suites/index.js';

const site = { authorization: basicAuth(DEMO_SITE.id, DEMO_SITE.secret) };
const TO = '0x000000000000000000000000000000000000bEEF';

describe('through the gateway: one instance of each service', () => {
  let setup: GatewaySetup;
  beforeAll(async () => {
    setup = await startGatewaySetup({});
  }, 180_000);
  afterAll(async () => {
    await setup?.stop();
  }, 60_000);

  const context = { stack: () => setup.stack };
  for (const suite of SUITES) suite(context);
  // The demo web site in a browser: one setup is enough (no replica changes what a page shows).
  demoOid4vpBrowserSuite(context);
});

describe('through the gateway: two replicas of each service', () => {
  let setup: GatewaySetup;
  beforeAll(async () => {
    setup = await startGatewaySetup({ 'auth-service': 2, 'did-service': 2, 'token-rpc': 2 });
  }, 180_000);
  afterAll(async () => {
    await setup?.stop();
  }, 60_000);

  for (const suite of SUITES) suite({ stack: () => setup.stack });

  describe('what only replicas show', () => {
    it('creates the issuer and verifier DIDs and runs each migration exactly once', async () => {
      const client = new pg.Client({ connectionString: setup.stack.databaseUrl });
      await client.connect();
      try {
        const aliases = await client.query<{ alias: string; n: string }>(
          `select alias, count(*) as n from did_veramo.identifier
            where alias like 'itp-%' group by alias order by alias`,
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
          if (!columns.rows.some((c) => c.column_name === 'name')) continue; // a lock table
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

    it('runs a web-site login created on one replica and approved through the other', async () => {
      const [auth0, auth1] = setup.stack.replicas['auth-service']!;
      const gw = setup.stack.gatewayUrl;
      const created = await post(
        `${auth0!.url}/v2/auth/auth-user-by-app`,
        { requestId: `${DEMO_SITE.requestIdPrefix}?`, waitTime: 120 },
        site,
      );
      expect(created.status).toBe(200);
      const { requestId } = created.body as { requestId: string };
      const { presentation } = await credentialAndPresentation(
        gw,
        await bearerOfDemoUser(gw),
        'phone-across-replicas',
      );
      const approved = await post(`${auth1!.url}/v2/auth/auth-user-with-vp`, {
        vp: presentation,
        requestId,
      });
      expect(approved.status).toBe(200);
      expect(approved.body.userId).toBe(DEMO_USER.id);
      const result = await post(
        `${auth0!.url}/v2/auth/auth-user-result-by-app`,
        { requestId },
        site,
      );
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ userId: DEMO_USER.id, token: expect.any(String) });
      const again = await post(
        `${auth1!.url}/v2/auth/auth-user-result-by-app`,
        { requestId },
        site,
      );
      expect(again.status).toBe(400);
    }, 120_000);

    it('sends transfers from one address straight to both token-rpc replicas at once: no nonce gap', async () => {
      const { gatewayUrl: gw, chainUrl } = setup.stack;
      const tokens = setup.stack.replicas['token-rpc']!;
      const wallet = await newWallet(gw);
      const start = Number(
        BigInt(await chainCall(chainUrl, 'eth_getTransactionCount', [wallet.address, 'latest'])),
      );
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          transfer(tokens[i % tokens.length]!.url, wallet, TO, String(1000 + i)),
        ),
      );
      expect(answers.filter((a) => a.result?.resultCode !== '200')).toEqual([]);
      const nonces: number[] = [];
      for (const a of answers) {
        const hash = a.result.TransactionID as string;
        await waitFor(() => chainCall(chainUrl, 'eth_getTransactionReceipt', [hash]), {
          what: `the receipt of ${hash}`,
          intervalMs: 25,
        });
        nonces.push(
          Number(BigInt((await chainCall(chainUrl, 'eth_getTransactionByHash', [hash])).nonce)),
        );
      }
      expect(nonces.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => start + i));
    }, 120_000);

    // Last: it kills a replica.
    it('routes around a killed replica: transfers keep working, none reported done that was lost', async () => {
      const { gatewayUrl: gw, chainUrl } = setup.stack;
      const wallet = await newWallet(gw);
      const victim = setup.stack.replicas['token-rpc']![1]!;
      const answers: Array<Promise<Json | { failed: string }>> = [];
      for (let i = 0; i < 30; i += 1) {
        // Whole transfers (tempKey, signData, transfer) through the gateway: state-changing
        // calls in flight when a replica dies, not only tempKeys.
        answers.push(
          transfer(gw, wallet, TO, String(2000 + i)).catch((err: unknown) => ({
            failed: String(err),
          })),
        );
        if (i === 10) await setup.stack.kill(victim);
        // Transfers spread over time, so that some are in flight when the replica dies (the
        // load's shape: a real duration, not a wait for something).
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
          () => chainCall(chainUrl, 'eth_getTransactionReceipt', [a.result.TransactionID]),
          { what: `the receipt of ${String(a.result.TransactionID)}`, intervalMs: 25 },
        );
        expect(receipt?.status).toBe('0x1');
      }
      // did-service's replicas call token-rpc through its balanced address: with replica 1
      // dead, create-did still works from every did-service replica.
      const bearer = await bearerOfDemoUser(gw);
      for (const did of setup.stack.replicas['did-service']!) {
        const w = await newWallet(gw);
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
});
