import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import type { RunningAnvil } from '@itp/dev-chain';
import { RedisKvStore } from '@itp/stores';
import {
  createTestDatabase,
  waitFor,
  loseRedisData,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import {
  ONE_ETH,
  authorize,
  chainCall,
  createAddress,
  ok,
  receiptOf,
  rpc,
  runSql,
  setBalance,
  sha256,
  startFundedTestChain,
  startTokenApp,
  transferParams,
  type Json,
  type TestWallet,
  type TokenTestApp,
} from './testing/token-test-kit.js';

const TO = '0x000000000000000000000000000000000000dEaD';

const USED_BY_OTHER =
  'tempKey was already used by another request (only an identical retry, with the same ' +
  'params and signature, gets its answer): get a new one with net_getTempKey';

/**
 * Issue 10, part 3 (docs/api.md §4): an identical retry of a transaction request (same tempKey, same
 * params, same signature) gets the original answer — the same TransactionID — instead of "409";
 * any other request with a used tempKey is "409". Two replicas on one Redis and PostgreSQL, anvil.
 */
describe('token-rpc idempotent retries', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let redisPrefix: string;
  let first: TokenTestApp;
  let second: TokenTestApp;

  const minedNonce = async (address: string) =>
    Number(await chainCall(chain.url, 'eth_getTransactionCount', [address, 'latest']));
  const pendingNonce = async (address: string) =>
    Number(await chainCall(chain.url, 'eth_getTransactionCount', [address, 'pending']));
  const recordsFrom = (address: string) =>
    runSql(db.url, `SELECT hash FROM token_transactions WHERE from_address = '${address}'`);

  async function fundedWallet(): Promise<TestWallet> {
    const wallet = await createAddress(first.url);
    await setBalance(chain.url, wallet.address, ONE_ETH);
    return wallet;
  }

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    redisPrefix = uniquePrefix('token');
    first = await startTokenApp({ chainUrl: chain.url, databaseUrl: db.url, redisPrefix });
    second = await startTokenApp({ chainUrl: chain.url, databaseUrl: db.url, redisPrefix });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await db?.drop();
    await chain?.stop();
  });

  it('20 concurrent identical transfers (two replicas): one transaction, every answer its TransactionID', async () => {
    const wallet = await fundedWallet();
    const params = await transferParams(first.url, wallet, TO, '1000');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        rpc(i % 2 === 0 ? first.url : second.url, '/token', 'transfer', params),
      ),
    );
    expect(answers.map((a) => a.result.resultCode)).toEqual(Array(20).fill('200'));
    const ids = new Set(answers.map((a) => a.result.TransactionID));
    expect(ids.size).toBe(1);
    const [transactionId] = [...ids] as [string];
    expect(answers.every((a) => a.result.resultData === transactionId)).toBe(true);
    expect((await receiptOf(chain.url, transactionId)).status).toBe('0x1');
    expect(await minedNonce(wallet.address)).toBe(1);
    expect(await recordsFrom(wallet.address)).toEqual([{ hash: transactionId }]);
  });

  it('a retry after a lost answer gets the same TransactionID; nothing is sent again', async () => {
    const wallet = await fundedWallet();
    const params = await transferParams(first.url, wallet, TO, '2000');
    // The first call completed; say the client never saw the answer.
    const lost = await rpc(first.url, '/token', 'transfer', params);
    await receiptOf(chain.url, lost.result.TransactionID);
    const retried = await rpc(second.url, '/token', 'transfer', params);
    expect(retried.result).toEqual(lost.result);
    const again = await rpc(first.url, '/token', 'transfer', [params]);
    expect(again.result.TransactionID).toBe(lost.result.TransactionID);
    expect(await pendingNonce(wallet.address)).toBe(1);
  });

  it('after Redis restarted empty, an identical retry still gets its TransactionID, another request 409', async () => {
    const wallet = await fundedWallet();
    const params = await transferParams(first.url, wallet, TO, '2500');
    const lost = await rpc(first.url, '/token', 'transfer', params);
    expect(lost.result.resultCode).toBe('200');
    await receiptOf(chain.url, lost.result.TransactionID);
    // Every key of token-rpc in Redis is gone (tempKeys, their answers, nonce state).
    expect(await loseRedisData(redisPrefix)).toBeGreaterThan(0);
    const retried = await rpc(second.url, '/token', 'transfer', params);
    expect(retried.result).toEqual(lost.result);
    const changed = await rpc(first.url, '/token', 'transfer', { ...params, amount: '2501' });
    expect(changed.result.resultCode).toBe('409');
    expect(await pendingNonce(wallet.address)).toBe(1);
    expect(await recordsFrom(wallet.address)).toEqual([{ hash: lost.result.TransactionID }]);
  });

  it('any other request with a used tempKey stays 409: another amount, another signature', async () => {
    const wallet = await fundedWallet();
    const params = await transferParams(first.url, wallet, TO, '3000');
    expect((await rpc(first.url, '/token', 'transfer', params)).result.resultCode).toBe('200');
    const other = await transferParams(first.url, wallet, TO, '3001');
    for (const changed of [
      { ...params, amount: '3001' },
      { ...params, signature: other.signature },
      { ...params, to: TO.toLowerCase() },
    ]) {
      const answer = await rpc(second.url, '/token', 'transfer', changed);
      expect(answer.result).toEqual({
        resultCode: '409',
        resultMessage:
          'tempKey was already used by another request (only an identical retry, with the same ' +
          'params and signature, gets its answer): get a new one with net_getTempKey',
        resultData: '',
      });
    }
    expect(await pendingNonce(wallet.address)).toBe(1);
  });

  it('an identical retry of a refused request gets the same refusal, and is not run again', async () => {
    const wallet = await createAddress(first.url); // no coin
    const params = await transferParams(first.url, wallet, TO, '1');
    const refused = await rpc(first.url, '/token', 'transfer', params);
    expect(refused.result.resultCode).toBe('402');
    await setBalance(chain.url, wallet.address, ONE_ETH);
    const retried = await rpc(second.url, '/token', 'transfer', params);
    expect(retried.result).toEqual({
      resultCode: '402',
      resultMessage:
        `${refused.result.resultMessage} (the answer of the first request with this tempKey, ` +
        'which is used: get a new tempKey to try again)',
      resultData: '',
    });
    expect(await pendingNonce(wallet.address)).toBe(0);
  });

  it('an identical retry waits for the first request while it runs, up to TEMP_KEY_RETRY_WAIT_MS', async () => {
    const impatient = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix,
      env: { TEMP_KEY_RETRY_WAIT_MS: '300' },
    });
    const kv = new RedisKvStore({ url: testRedisUrl(), keyPrefix: redisPrefix });
    try {
      const wallet = await fundedWallet();
      const params = await transferParams(first.url, wallet, TO, '4000');
      // Someone else holds the address's nonce lease: the first request waits for it.
      const lease = `nonce:lease:${wallet.address.toLowerCase()}`;
      await kv.set(lease, 'held-by-the-test', { ttlMs: 30_000 });
      const running = rpc(first.url, '/token', 'transfer', params);
      // The first request has claimed the tempKey (and now waits for the lease).
      await waitFor(
        async () => (await kv.get(`tempkey:${params.tempKey as string}`))?.includes('"pending"'),
        { what: 'the first request claimed the tempKey', timeoutMs: 10_000 },
      );
      const early = await rpc(impatient.url, '/token', 'transfer', params);
      expect(early.result).toEqual({
        resultCode: '409',
        resultMessage:
          'the first request with this tempKey is still being processed: retry the same request ' +
          'shortly to get its result',
        resultData: '',
      });
      const waiting = rpc(second.url, '/token', 'transfer', params); // waits up to 10 s
      // A real duration, not a wait: the first request keeps running (the lease stays held) for
      // a while, and the identical retry has to wait for it meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 150));
      await kv.del(lease);
      const [done, waited]: Json[] = await Promise.all([running, waiting]);
      expect(done.result.resultCode).toBe('200');
      expect(waited.result).toEqual(done.result);
      expect((await rpc(impatient.url, '/token', 'transfer', params)).result).toEqual(done.result);
      await receiptOf(chain.url, done.result.TransactionID);
      expect(await minedNonce(wallet.address)).toBe(1);
    } finally {
      await kv.close();
      await impatient.close();
    }
  });

  it('createToken and the erc20 transfer / approve / transferFrom answer identical retries the same way', async () => {
    const wallet = await fundedWallet();
    const spender = await fundedWallet();
    const token = { name: 'Retry Token', symbol: 'RTY', decimals: 18, initialSupply: '1000000' };
    const deploy = await authorize(first.url, wallet, 'createToken', (t, h) => [
      wallet.address,
      token.name,
      token.symbol,
      token.decimals,
      token.initialSupply,
      t,
      h,
    ]);
    const createParams = { from: wallet.address, ...token, ...deploy };
    const created = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        rpc(i % 2 === 0 ? first.url : second.url, '/token', 'createToken', createParams),
      ),
    );
    expect(new Set(created.map((a) => JSON.stringify(a.result))).size).toBe(1);
    const contract: string = created[0].result.resultData;
    await receiptOf(chain.url, created[0].result.TransactionID);
    const deployment = await ok(first.url, '/token', 'getTransactionStatus', {
      transactionId: created[0].result.TransactionID,
    });
    expect(deployment).toMatchObject({
      kind: 'createToken',
      to: null,
      contractAddress: contract,
      amount: '1000000',
    });

    const erc20 = async (
      method: 'transfer' | 'approve' | 'transferFrom',
      from: TestWallet,
      extra: Record<string, string>,
      to: string,
      amount: string,
    ) => {
      const c = await authorize(first.url, from, 'erc20', (t, h) => [
        from.address,
        contract,
        to,
        amount,
        t,
        h,
      ]);
      const params = { from: from.address, contract, to, amount, ...extra, ...c };
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          rpc(i % 2 === 0 ? first.url : second.url, '/token/erc20', method, params),
        ),
      );
      expect(answers.map((a) => a.result.resultCode)).toEqual(Array(4).fill('200'));
      expect(new Set(answers.map((a) => a.result.TransactionID)).size).toBe(1);
      await receiptOf(chain.url, answers[0].result.TransactionID);
    };
    await erc20('transfer', wallet, {}, TO, '10');
    await erc20('approve', wallet, {}, spender.address, '50');
    await erc20('transferFrom', spender, { owner: wallet.address }, TO, '20');
    const balance = await ok(first.url, '/token/erc20', 'balanceOf', { contract, address: TO });
    expect(balance.balance).toBe('30');
    expect(await minedNonce(wallet.address)).toBe(3); // deploy, transfer, approve
    expect(await minedNonce(spender.address)).toBe(1);
  });

  /**
   * Contract §16 ("Redis may go back in time"): Redis restored from a snapshot taken before the
   * transfer (a backup, a failover to a replica that lagged) offers the used tempKey as new again.
   * The transaction log decides: the identical retry gets the original TransactionID, anything
   * else "409", and the wallet sends one transaction.
   */
  describe('after Redis went back in time', () => {
    let kv: RedisKvStore;
    beforeAll(() => {
      kv = new RedisKvStore({ url: testRedisUrl(), keyPrefix: redisPrefix });
    });
    afterAll(async () => {
      await kv?.close();
    });

    /** The tempKey's Redis key as it is now; the function writes it back (the "restore"). */
    async function snapshotTempKey(tempKey: string): Promise<() => Promise<void>> {
      const key = `tempkey:${tempKey}`;
      const value = await kv.get(key);
      if (value === null || value.includes('"used"')) throw new Error('no unused tempKey');
      return async () => {
        await kv.set(key, value, { ttlMs: 300_000 });
      };
    }

    /** A transfer whose tempKey's Redis key was snapshotted before it was sent. */
    async function transferredThenRestored(amount: string) {
      const wallet = await fundedWallet();
      const params = await transferParams(first.url, wallet, TO, amount);
      const restore = await snapshotTempKey(params.tempKey as string);
      const original: Json = await rpc(first.url, '/token', 'transfer', params);
      expect(original.result.resultCode).toBe('200');
      await receiptOf(chain.url, original.result.TransactionID);
      await restore();
      return { wallet, params, original };
    }

    async function expectOneTransaction(address: string, transactionId: string) {
      expect(await pendingNonce(address)).toBe(1);
      expect(await minedNonce(address)).toBe(1);
      expect(await recordsFrom(address)).toEqual([{ hash: transactionId }]);
    }

    it('an identical retry gets the original TransactionID; nothing is sent again', async () => {
      const { wallet, params, original } = await transferredThenRestored('5000');
      const retried = await rpc(second.url, '/token', 'transfer', params);
      expect(retried.result).toEqual(original.result);
      await expectOneTransaction(wallet.address, original.result.TransactionID);
      // Redis holds the original answer again: the next retry is answered from it.
      expect(await kv.get(`tempkey:${params.tempKey as string}`)).toContain('"done"');
      expect((await rpc(first.url, '/token', 'transfer', params)).result).toEqual(original.result);
    });

    it('another request with that tempKey is refused; the original retry still gets its answer', async () => {
      const { wallet, params, original } = await transferredThenRestored('6000');
      // Validly signed: the tempKey looks unused again, so signData signs another amount with it.
      const signature = await ok(first.url, '/token', 'signData', {
        from: wallet.address,
        hash: sha256([wallet.address, TO, '6001', params.tempKey, params.hashKey].join('|')),
        tempKey: params.tempKey,
        hashKey: params.hashKey,
      });
      const changed = await rpc(second.url, '/token', 'transfer', {
        ...params,
        amount: '6001',
        signature,
      });
      expect(changed.result).toEqual({
        resultCode: '409',
        resultMessage: USED_BY_OTHER,
        resultData: '',
      });
      expect((await rpc(first.url, '/token', 'transfer', params)).result).toEqual(original.result);
      await expectOneTransaction(wallet.address, original.result.TransactionID);
    });

    it('20 identical retries at once (two replicas): every answer the original TransactionID', async () => {
      const { wallet, params, original } = await transferredThenRestored('7000');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          rpc(i % 2 === 0 ? first.url : second.url, '/token', 'transfer', params),
        ),
      );
      expect(answers.map((a) => a.result)).toEqual(Array(20).fill(original.result));
      await expectOneTransaction(wallet.address, original.result.TransactionID);
    });

    /**
     * Two requests that both got past the log's look before either recorded (Redis went back in
     * time while the first was waiting for its nonce lease): the unique temp_key_hash decides
     * when the second records, before anything of it is sent.
     */
    describe.each([
      ['an identical request', false],
      ['another request (another amount, validly signed)', true],
    ])('racing across the revert: %s', (_name, other) => {
      it("one transaction; the second is answered from the first one's record", async () => {
        const lines: string[] = [];
        const sink = new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        });
        const logger = pino({ level: 'trace' }, sink);
        const racers = [
          await startTokenApp({ chainUrl: chain.url, databaseUrl: db.url, redisPrefix, logger }),
          await startTokenApp({ chainUrl: chain.url, databaseUrl: db.url, redisPrefix, logger }),
        ] as const;
        try {
          const wallet = await fundedWallet();
          const params = await transferParams(first.url, wallet, TO, '8000');
          // The other request: amount 8001, signed with the same tempKey (signData only peeks).
          const otherParams: Record<string, string> = {
            ...params,
            amount: '8001',
            signature: await ok(first.url, '/token', 'signData', {
              from: wallet.address,
              hash: sha256([wallet.address, TO, '8001', params.tempKey, params.hashKey].join('|')),
              tempKey: params.tempKey,
              hashKey: params.hashKey,
            }),
          };
          const secondParams = other ? otherParams : params;
          const restore = await snapshotTempKey(params.tempKey as string);
          const running = () =>
            lines.filter((l) => l.includes('no transaction in the log for it')).length;
          // The test holds the address's nonce lease: each request waits for it after the look.
          const lease = `nonce:lease:${wallet.address.toLowerCase()}`;
          await kv.set(lease, 'held-by-the-test', { ttlMs: 30_000 });
          const firstAnswer = rpc(racers[0].url, '/token', 'transfer', params);
          await waitFor(() => running() === 1, {
            what: 'the first request runs',
            timeoutMs: 10_000,
          });
          await restore();
          const secondAnswer = rpc(racers[1].url, '/token', 'transfer', secondParams);
          await waitFor(() => running() === 2, {
            what: 'the second request runs too',
            timeoutMs: 10_000,
          });
          await kv.del(lease);
          const answers: Json[] = await Promise.all([firstAnswer, secondAnswer]);
          const sent = answers.find((a) => a.result.resultCode === '200');
          expect(sent).toBeDefined();
          const transactionId: string = sent.result.TransactionID;
          await receiptOf(chain.url, transactionId);
          if (!other) {
            expect(answers.map((a) => a.result)).toEqual([sent.result, sent.result]);
          } else {
            expect(answers.map((a) => a.result.resultCode).sort()).toEqual(['200', '409']);
            expect(answers.find((a) => a.result.resultCode === '409').result.resultMessage).toBe(
              USED_BY_OTHER,
            );
          }
          await expectOneTransaction(wallet.address, transactionId);
          expect(lines.some((l) => l.includes('shows as used (Redis went back in time?)'))).toBe(
            true,
          );
        } finally {
          await Promise.all(racers.map((r) => r.close()));
        }
      });
    });
  });
});
