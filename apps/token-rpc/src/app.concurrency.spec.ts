import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { RunningAnvil } from '@itp/dev-chain';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import type { TokenDatabase } from './db/database.js';
import {
  ONE_ETH,
  chainCall,
  createAddress,
  receiptOf,
  rpc,
  setBalance,
  startFundedTestChain,
  startTokenApp,
  transferParams,
  type TokenTestApp,
} from './testing/token-test-kit.js';

const TO = '0x000000000000000000000000000000000000dEaD';

/** Concurrency against a real chain, Redis and PostgreSQL: tempKey race and the nonce manager. */
describe('token-rpc under concurrency', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let kysely: Kysely<TokenDatabase>;
  let first: TokenTestApp;
  let second: TokenTestApp;

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    const redisPrefix = uniquePrefix('token');
    // Two instances of token-rpc sharing one Redis namespace and one database.
    first = await startTokenApp({ chainUrl: chain.url, databaseUrl: db.url, redisPrefix });
    second = await startTokenApp({ chainUrl: chain.url, databaseUrl: db.url, redisPrefix });
    kysely = new Kysely<TokenDatabase>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: db.url, max: 1 }) }),
    });
  });
  afterAll(async () => {
    await kysely?.destroy();
    await first?.close();
    await second?.close();
    await db?.drop();
    await chain?.stop();
  });

  async function transactionsFrom(address: string) {
    return kysely
      .selectFrom('token_transactions')
      .selectAll()
      .where('from_address', '=', address)
      .execute();
  }

  it('20 concurrent transfers with one tempKey give exactly one transaction', async () => {
    const wallet = await createAddress(first.url);
    await setBalance(chain.url, wallet.address, ONE_ETH);
    const params = await transferParams(first.url, wallet, TO, '1000');
    // 20 different requests (amounts 1000 … 1019; only the first is signed): one runs, 19 are 409.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        rpc(i % 2 === 0 ? first.url : second.url, '/token', 'transfer', {
          ...params,
          amount: String(1000 + i),
        }),
      ),
    );
    const codes = answers.map((a) => a.result.resultCode);
    expect(codes.filter((c) => c === '409')).toHaveLength(19);
    expect(codes.filter((c) => c === '200' || c === '401')).toHaveLength(1);
    const winner = answers.find((a) => a.result.resultCode === '200');
    if (winner) await receiptOf(chain.url, winner.result.TransactionID);
    expect(
      Number(await chainCall(chain.url, 'eth_getTransactionCount', [wallet.address, 'latest'])),
    ).toBe(winner ? 1 : 0);
    expect(await transactionsFrom(wallet.address)).toHaveLength(winner ? 1 : 0);
    // 20 identical requests (another tempKey): one transaction, all answered with it
    // (app.idempotent-retries.spec.ts has the rest of docs/api.md §4's retries).
    const identical = await transferParams(first.url, wallet, TO, '2000');
    const same = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        rpc(i % 2 === 0 ? first.url : second.url, '/token', 'transfer', identical),
      ),
    );
    expect(same.map((a) => a.result.resultCode)).toEqual(Array(20).fill('200'));
    expect(new Set(same.map((a) => a.result.TransactionID)).size).toBe(1);
    await receiptOf(chain.url, same[0].result.TransactionID);
    expect(await transactionsFrom(wallet.address)).toHaveLength(winner ? 2 : 1);
  });

  it('25 concurrent transfers from one address are all mined, with distinct consecutive nonces', async () => {
    const wallet = await createAddress(first.url);
    await setBalance(chain.url, wallet.address, ONE_ETH);
    const prepared = await Promise.all(
      Array.from({ length: 25 }, (_, i) => transferParams(first.url, wallet, TO, String(1000 + i))),
    );
    const answers = await Promise.all(
      prepared.map((params) => rpc(first.url, '/token', 'transfer', params)),
    );
    expect(answers.map((a) => a.result.resultCode)).toEqual(Array(25).fill('200'));
    await assertMinedConsecutive(
      answers.map((a) => a.result.TransactionID),
      wallet.address,
      25,
    );
  }, 90_000);

  it('two instances sending from one address never reuse or skip a nonce', async () => {
    const wallet = await createAddress(first.url);
    await setBalance(chain.url, wallet.address, ONE_ETH);
    const prepared = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        transferParams(i % 2 === 0 ? first.url : second.url, wallet, TO, String(i + 1)),
      ),
    );
    const answers = await Promise.all(
      prepared.map((params, i) =>
        rpc(i % 2 === 0 ? first.url : second.url, '/token', 'transfer', params),
      ),
    );
    expect(answers.map((a) => a.result.resultCode)).toEqual(Array(20).fill('200'));
    await assertMinedConsecutive(
      answers.map((a) => a.result.TransactionID),
      wallet.address,
      20,
    );
  }, 90_000);

  it('resynchronises with the chain after a transaction sent outside token-rpc', async () => {
    const wallet = await createAddress(first.url);
    await setBalance(chain.url, wallet.address, ONE_ETH);
    const before = await rpc(
      first.url,
      '/token',
      'transfer',
      await transferParams(first.url, wallet, TO, '1'),
    );
    expect(before.result.resultCode).toBe('200');
    // The same key used elsewhere (the user imported the mnemonic into another wallet).
    const { Wallet, JsonRpcProvider } = await import('ethers');
    const provider = new JsonRpcProvider(chain.url, undefined, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    try {
      const outside = Wallet.fromPhrase(wallet.mnemonic, provider);
      const tx = await outside.sendTransaction({ to: TO, value: 1n });
      await tx.wait();
    } finally {
      provider.destroy();
    }
    const after = await rpc(
      second.url,
      '/token',
      'transfer',
      await transferParams(second.url, wallet, TO, '2'),
    );
    expect(after.result.resultCode).toBe('200');
    const receipt = await receiptOf(chain.url, after.result.TransactionID);
    expect(receipt.status).toBe('0x1');
    const tx = await chainCall(chain.url, 'eth_getTransactionByHash', [after.result.TransactionID]);
    expect(Number(tx.nonce)).toBe(2);
  });

  it('resynchronises after a send the node refused (recorded as failed, nonce not skipped)', async () => {
    const wallet = await createAddress(first.url);
    await setBalance(chain.url, wallet.address, ONE_ETH);
    const okFirst = await rpc(
      first.url,
      '/token',
      'transfer',
      await transferParams(first.url, wallet, TO, '1'),
    );
    expect(okFirst.result.resultCode).toBe('200');
    await receiptOf(chain.url, okFirst.result.TransactionID);
    // Exactly the amount, nothing left for gas: the estimate passes, the node refuses the send.
    const balance = BigInt(
      await chainCall(chain.url, 'eth_getBalance', [wallet.address, 'latest']),
    );
    const refused = await rpc(
      first.url,
      '/token',
      'transfer',
      await transferParams(first.url, wallet, TO, balance.toString()),
    );
    expect(refused.result.resultCode).toBe('402');
    const failed = await transactionsFrom(wallet.address);
    expect(failed.map((r) => r.status).sort()).toEqual(['failed', 'sent']);
    const okAgain = await rpc(
      second.url,
      '/token',
      'transfer',
      await transferParams(second.url, wallet, TO, '2'),
    );
    expect(okAgain.result.resultCode).toBe('200');
    const tx = await chainCall(chain.url, 'eth_getTransactionByHash', [
      okAgain.result.TransactionID,
    ]);
    expect(Number(tx.nonce)).toBe(1);
    expect((await receiptOf(chain.url, okAgain.result.TransactionID)).status).toBe('0x1');
  });

  async function assertMinedConsecutive(hashes: string[], address: string, count: number) {
    const receipts = await Promise.all(hashes.map((hash) => receiptOf(chain.url, hash)));
    expect(receipts.every((r) => r.status === '0x1')).toBe(true);
    const txs = await Promise.all(
      hashes.map((hash) => chainCall(chain.url, 'eth_getTransactionByHash', [hash])),
    );
    const nonces = txs.map((tx) => Number(tx.nonce)).sort((a, b) => a - b);
    expect(nonces).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(Number(await chainCall(chain.url, 'eth_getTransactionCount', [address, 'latest']))).toBe(
      count,
    );
    const recorded = await kysely
      .selectFrom('token_transactions')
      .select(['status', sql<number>`count(*)`.as('n')])
      .where('from_address', '=', address)
      .groupBy('status')
      .execute();
    expect(recorded.map((r) => [r.status, Number(r.n)])).toEqual([['sent', count]]);
  }
});
