import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEV_CHAIN, type RunningAnvil } from '@itp/dev-chain';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  chainCall,
  failWrites,
  ok,
  rpc,
  runSql,
  setBalance,
  startFundedTestChain,
  startTokenApp,
  type TokenTestApp,
} from './testing/token-test-kit.js';

const FUNDER = DEV_CHAIN.devOnlyAccount0.address;

/**
 * Issue 10, part 2: dev mode funds each new address from the dev chain's account #0. The address
 * is stored before it is funded (a database failure never leaves a funded address nobody holds),
 * and an empty funding account is named as such.
 */
describe('token-rpc dev funding', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let app: TokenTestApp;
  let dataDir: string;

  const funderNonce = async () =>
    Number(await chainCall(chain.url, 'eth_getTransactionCount', [FUNDER, 'pending']));

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'token-rpc-funding-'));
    app = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix: uniquePrefix('token'),
      appEnv: 'development',
      dataDir,
    });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await chain?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends no coin when the new address cannot be stored', async () => {
    const nonceBefore = await funderNonce();
    const blockBefore = await chainCall(chain.url, 'eth_blockNumber');
    const allowInserts = await failWrites(db.url, 'wallet_keys', 'INSERT');
    let answer;
    try {
      answer = await rpc(app.url, '/token', 'createAddress');
    } finally {
      await allowInserts();
    }
    expect(answer.error).toBeUndefined();
    expect(answer.result.resultCode).toBe('500');
    expect(JSON.stringify(answer)).not.toMatch(/mnemonic|secretKey/);
    expect(await funderNonce()).toBe(nonceBefore);
    expect(await chainCall(chain.url, 'eth_blockNumber')).toBe(blockBefore);
    expect(
      await runSql(
        db.url,
        "SELECT count(*)::int AS n FROM token_transactions WHERE kind = 'devFunding'",
      ),
    ).toEqual([{ n: 0 }]);

    // Stored first, then funded: the address the answer names is in the wallet and holds coin.
    const created = await ok(app.url, '/token', 'createAddress');
    const stored = await runSql(
      db.url,
      `SELECT created_at FROM wallet_keys WHERE address = '${created.address}'`,
    );
    expect(stored).toHaveLength(1);
    const funding = await runSql(
      db.url,
      `SELECT created_at FROM token_transactions WHERE kind = 'devFunding' AND to_address = '${created.address}'`,
    );
    expect(Number(funding[0].created_at)).toBeGreaterThanOrEqual(Number(stored[0].created_at));
    expect(BigInt((await ok(app.url, '/token', 'getBalance', created)).balance)).toBe(10n ** 19n);
  });

  it('says "the dev funding account is empty" when account #0 cannot pay', async () => {
    const balance = BigInt(await chainCall(chain.url, 'eth_getBalance', [FUNDER, 'latest']));
    await setBalance(chain.url, FUNDER, 0n);
    let answer;
    try {
      answer = await rpc(app.url, '/token', 'createAddress');
    } finally {
      await setBalance(chain.url, FUNDER, balance);
    }
    expect(answer.result.resultCode).toBe('500');
    expect(answer.result.resultMessage).toMatch(
      new RegExp(`^the dev funding account is empty: ${FUNDER} cannot pay DEV_FUNDING_WEI`),
    );
    expect(answer.result.resultMessage).not.toContain('the sending address cannot pay');
    expect((await rpc(app.url, '/token', 'createAddress')).result.resultCode).toBe('200');
  });
});
