import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import type { RunningAnvil } from '@itp/dev-chain';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import type { TokenDatabase } from './db/database.js';
import {
  ONE_ETH,
  TEST_MASTER_KEY,
  createAddress,
  receiptOf,
  rpc,
  setBalance,
  startFundedTestChain,
  startTokenApp,
  transferParams,
  type TestWallet,
} from './testing/token-test-kit.js';

const TO = '0x000000000000000000000000000000000000dEaD';
const NEW_MASTER_KEY = `test2:${randomBytes(32).toString('base64')}`;

/** Restarts with the data kept: keys still decrypt, old addresses still work, keys rotate. */
describe('token-rpc restart', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let redisPrefix: string;
  let wallet: TestWallet;

  const start = (env: Record<string, string> = {}) =>
    startTokenApp({ chainUrl: chain.url, databaseUrl: db.url, redisPrefix, env });

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    redisPrefix = uniquePrefix('token');
  });
  afterAll(async () => {
    await db?.drop();
    await chain?.stop();
  });

  it('an address made before a restart still signs and transfers after it', async () => {
    const before = await start();
    try {
      wallet = await createAddress(before.url);
      await setBalance(chain.url, wallet.address, ONE_ETH);
      const sent = await rpc(
        before.url,
        '/token',
        'transfer',
        await transferParams(before.url, wallet, TO, '7'),
      );
      expect(sent.result.resultCode).toBe('200');
    } finally {
      await before.close();
    }
    const after = await start();
    try {
      const sent = await rpc(
        after.url,
        '/token',
        'transfer',
        await transferParams(after.url, wallet, TO, '8'),
      );
      expect(sent.result.resultCode).toBe('200');
      expect((await receiptOf(chain.url, sent.result.TransactionID)).status).toBe('0x1');
    } finally {
      await after.close();
    }
  });

  it('after a master key rotation the old keys still open and are re-sealed under the new key', async () => {
    const rotated = await start({
      WALLET_MASTER_KEY: NEW_MASTER_KEY,
      WALLET_PREVIOUS_MASTER_KEYS: TEST_MASTER_KEY,
    });
    try {
      const sent = await rpc(
        rotated.url,
        '/token',
        'transfer',
        await transferParams(rotated.url, wallet, TO, '9'),
      );
      expect(sent.result.resultCode).toBe('200');
    } finally {
      await rotated.close();
    }
    const kysely = new Kysely<TokenDatabase>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: db.url, max: 1 }) }),
    });
    try {
      const row = await kysely
        .selectFrom('wallet_keys')
        .selectAll()
        .where('address', '=', wallet.address)
        .executeTakeFirstOrThrow();
      for (const sealed of [row.private_key_sealed, row.mnemonic_sealed, row.secret_key_sealed]) {
        expect(sealed.startsWith('v1.test2.')).toBe(true);
      }
    } finally {
      await kysely.destroy();
    }
    // Only the new key now: still works.
    const current = await start({ WALLET_MASTER_KEY: NEW_MASTER_KEY });
    try {
      const sent = await rpc(
        current.url,
        '/token',
        'transfer',
        await transferParams(current.url, wallet, TO, '10'),
      );
      expect(sent.result.resultCode).toBe('200');
    } finally {
      await current.close();
    }
  });

  it('with a wrong master key the wallet answers 500 without detail and logs why', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const wrong = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix,
      env: { WALLET_MASTER_KEY: `other:${randomBytes(32).toString('base64')}` },
      logger: pino({ level: 'info' }, sink),
    });
    try {
      const answer = await rpc(wrong.url, '/token', 'net_getTempKey', {
        address: wallet.address,
        keyType: 'transfer',
      });
      expect(answer.result.resultCode).toBe('200');
      const { tempKey } = answer.result.resultData;
      const signed = await rpc(wrong.url, '/token', 'signData', {
        from: wallet.address,
        hash: 'a'.repeat(64),
        tempKey,
        hashKey: 'b'.repeat(64),
      });
      // An internal failure: the caller gets the generic text with the request id, not the cause.
      expect(signed.result).toEqual({
        resultCode: '500',
        resultMessage: expect.stringMatching(/^Internal error \(request id .+\)$/),
        resultData: '',
      });
      expect(JSON.stringify(signed)).not.toContain('WALLET_MASTER_KEY');
      // The operator finds the reason in the log.
      expect(lines.join('')).toContain(
        'wallet secrets cannot be decrypted: unknown master key id test2 (check WALLET_MASTER_KEY)',
      );
    } finally {
      await wrong.close();
    }
  });
});
