import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunningAnvil } from '@itp/dev-chain';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  createAddress,
  startFundedTestChain,
  startTokenApp,
  type Json,
  type TokenTestApp,
} from './testing/token-test-kit.js';

/** The real defaults (the test kit raises them for the other specs). */
const DEFAULT_LIMITS = {
  RATE_LIMIT_WALLET_PER_MINUTE: '30',
  RATE_LIMIT_TEMP_KEY_PER_MINUTE: '300',
  RATE_LIMIT_SIGN_DATA_PER_MINUTE: '300',
  RATE_LIMIT_READ_PER_MINUTE: '600',
};

const CLIENT_A = '203.0.113.1';
const CLIENT_B = '203.0.113.2';
const RETRY = /at most \d+ per minute\): retry in \d+ s$/;

/**
 * Per-client rate limits of /token (createAddress + importAddress, net_getTempKey, signData),
 * counted in the shared Redis by client address (TRUST_PROXY=loopback: the test's
 * X-Forwarded-For stands for a gateway reporting two different clients).
 */
describe('token-rpc rate limits', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let app: TokenTestApp;
  let replica: TokenTestApp;
  let untrusting: TokenTestApp;
  let wallet: { address: string; secretKey: string };

  async function call(
    url: string,
    body: unknown,
    forwardedFor?: string,
    path = '/token',
  ): Promise<{ status: number; json: Json }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  }
  const request = (id: number, method: string, params: unknown = {}) => ({
    jsonrpc: '2.0',
    id,
    method,
    params,
  });
  const codesOf = (answers: Json[]) =>
    answers.map((a: Json) => a.result?.resultCode ?? `error ${a.error?.code}`);
  const count = (codes: string[], code: string) => codes.filter((c) => c === code).length;

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    const redisPrefix = uniquePrefix('token');
    const env = { ...DEFAULT_LIMITS, TRUST_PROXY: 'loopback' };
    app = await startTokenApp({ chainUrl: chain.url, databaseUrl: db.url, redisPrefix, env });
    // A second replica on the same Redis: the counters are shared.
    replica = await startTokenApp({ chainUrl: chain.url, databaseUrl: db.url, redisPrefix, env });
    // TRUST_PROXY unset (the default): X-Forwarded-For is not believed.
    untrusting = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix: uniquePrefix('token'),
      env: { ...DEFAULT_LIMITS, RATE_LIMIT_WALLET_PER_MINUTE: '2' },
    });
    wallet = await createAddress(app.url);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await replica?.close();
    await untrusting?.close();
    await db?.drop();
    await chain?.stop();
  });

  it('createAddress/importAddress: 30 per minute per client, each call of a batch counted', async () => {
    const batch = Array.from({ length: 31 }, (_, i) => request(i + 1, 'createAddress'));
    const { status, json } = await call(app.url, batch, CLIENT_A);
    expect(status).toBe(200);
    const codes = codesOf(json);
    expect(count(codes, '200')).toBe(30);
    expect(count(codes, '429')).toBe(1);
    const refused = (json as Json[]).find((a) => a.result.resultCode === '429');
    expect(refused.result).toEqual({
      resultCode: '429',
      resultMessage: expect.stringMatching(
        /^too many createAddress\/importAddress calls from this client \(at most 30 per minute\): retry in \d+ s$/,
      ),
      resultData: '',
    });

    // The same client again, importAddress (the same counter), and through the other replica.
    const mnemonic = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
    for (const [url, method, params] of [
      [app.url, 'createAddress', {}],
      [app.url, 'importAddress', { mnemonic }],
      [replica.url, 'createAddress', {}],
    ] as const) {
      const again = await call(url, request(1, method, params), CLIENT_A);
      expect(again.json.result.resultCode).toBe('429');
      expect(again.json.result.resultMessage).toMatch(RETRY);
    }

    // Other clients are not affected.
    const other = await call(app.url, request(1, 'importAddress', { mnemonic }), CLIENT_B);
    expect(other.json.result.resultCode).toBe('200');
    const direct = await call(replica.url, request(1, 'createAddress'));
    expect(direct.json.result.resultCode).toBe('200');
  });

  it('net_getTempKey: 300 per minute per client, across batches', async () => {
    const params = { address: wallet.address, keyType: 'transfer' };
    const codes: string[] = [];
    for (let round = 0; round < 3; round++) {
      const batch = Array.from({ length: 100 }, (_, i) => request(i + 1, 'net_getTempKey', params));
      codes.push(...codesOf((await call(app.url, batch, CLIENT_A)).json));
    }
    expect(count(codes, '200')).toBe(300);
    const over = await call(
      app.url,
      [request(1, 'net_getTempKey', params), request(2, 'net_getTempKey', params)],
      CLIENT_A,
    );
    expect(codesOf(over.json)).toEqual(['429', '429']);
    expect(over.json[0].result.resultMessage).toMatch(/^too many net_getTempKey calls/);
    expect(
      (await call(app.url, request(1, 'net_getTempKey', params), CLIENT_B)).json.result,
    ).toMatchObject({ resultCode: '200' });
  });

  it('signData: 300 per minute per client, refused calls counted too', async () => {
    const params = {
      from: wallet.address,
      hash: 'ab'.repeat(32),
      tempKey: 'cd'.repeat(32),
      hashKey: 'ef'.repeat(32),
    };
    const codes: string[] = [];
    for (let round = 0; round < 4; round++) {
      const batch = Array.from({ length: round < 3 ? 100 : 2 }, (_, i) =>
        request(i + 1, 'signData', params),
      );
      codes.push(...codesOf((await call(app.url, batch, CLIENT_B)).json));
    }
    // The unknown tempKey is 409 for the first 300 calls; the limit answers before the check.
    expect(count(codes, '409')).toBe(300);
    expect(codes.slice(300)).toEqual(['429', '429']);
    expect(
      (await call(app.url, request(1, 'signData', params), CLIENT_A)).json.result.resultCode,
    ).toBe('409');
  });

  it('reads: 600 per minute per client, one counter for getBalance and the ERC-20 reads', async () => {
    const client = '203.0.113.3';
    const balance = request(1, 'getBalance', { address: wallet.address });
    const codes: string[] = [];
    for (let round = 0; round < 5; round++) {
      const batch = Array.from({ length: 100 }, (_, i) => ({ ...balance, id: i + 1 }));
      codes.push(...codesOf((await call(app.url, batch, client)).json));
    }
    // The ERC-20 reads count against the same limit (the contract need not exist: the limit
    // answers before the chain is asked).
    const erc20 = Array.from({ length: 100 }, (_, i) =>
      request(i + 1, 'balanceOf', { contract: wallet.address, address: wallet.address }),
    );
    codes.push(...codesOf((await call(replica.url, erc20, client, '/token/erc20')).json));
    expect(count(codes, '429')).toBe(0);
    expect(codes).toHaveLength(600);
    const over = await call(app.url, balance, client);
    expect(over.json.result.resultCode).toBe('429');
    expect(over.json.result.resultMessage).toMatch(/^too many read calls/);
    const overErc20 = await call(app.url, erc20[0], client, '/token/erc20');
    expect(overErc20.json.result.resultCode).toBe('429');
    expect((await call(app.url, balance, CLIENT_A)).json.result.resultCode).toBe('200');
  });

  it('rpc.discover is answered once per batch: a batch of 100 gets one document and 99 -32600', async () => {
    const batch = Array.from({ length: 100 }, (_, i) => request(i + 1, 'rpc.discover'));
    const res = await call(app.url, batch, '203.0.113.4');
    const answers = res.json as Json[];
    expect(answers).toHaveLength(100);
    expect(answers.filter((a: Json) => a.result?.openrpc !== undefined)).toHaveLength(1);
    expect(answers.filter((a: Json) => a.error?.code === -32600)).toHaveLength(99);
    expect(JSON.stringify(res.json).length).toBeLessThan(200_000);
  });

  it('without TRUST_PROXY a caller cannot pick its own address with X-Forwarded-For', async () => {
    const codes: string[] = [];
    for (const forwardedFor of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      codes.push(
        (await call(untrusting.url, request(1, 'createAddress'), forwardedFor)).json.result
          .resultCode,
      );
    }
    expect(codes).toEqual(['200', '200', '429']);
  });
});
