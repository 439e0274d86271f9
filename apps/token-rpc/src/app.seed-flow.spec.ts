import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { RunningAnvil } from '@itp/dev-chain';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import type { TokenDatabase } from './db/database.js';
import {
  ONE_ETH,
  chainCall,
  ok,
  receiptOf,
  rpc,
  sha256,
  startFundedTestChain,
  startTokenApp,
  type Json,
  type TokenTestApp,
} from './testing/token-test-kit.js';

/**
 * The seed flow end to end, in dev mode (as `npm start` runs it), over HTTP against token-rpc
 * (through the gateway: e2e/src/suites/token.suite.ts): createAddress (funded) → net_getTempKey →
 * hashKey → signData → transfer → the transaction in a block.
 */
describe('token-rpc seed flow (dev mode)', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let app: TokenTestApp;
  let dataDir: string;

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'token-rpc-dev-'));
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

  it('creates, funds, authorises, signs and transfers; the transaction is mined and recorded', async () => {
    const created = await rpc(app.url, '/token', 'createAddress');
    expect(created.result.resultCode).toBe('200');
    expect(created.result.resultMessage).toBe('Success');
    const { address, mnemonic, secretKey } = created.result.resultData;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(mnemonic.split(' ')).toHaveLength(12);
    expect(secretKey).toMatch(/^[0-9a-f]{64}$/);

    // Dev mode: funded with 10 ETH at once.
    const balance = await ok(app.url, '/token', 'getBalance', { address });
    expect(balance).toEqual({ address, balance: (10n * ONE_ETH).toString() });

    const { tempKey } = await ok(app.url, '/token', 'net_getTempKey', {
      address,
      keyType: 'transfer',
    });
    const hashKey = sha256(`${tempKey}|${secretKey}`);
    const to = '0x000000000000000000000000000000000000dEaD';
    const amount = '1234567890000000';
    const hash = sha256(`${address}|${to}|${amount}|${tempKey}|${hashKey}`);
    const signature = await ok(app.url, '/token', 'signData', {
      from: address,
      hash,
      tempKey,
      hashKey,
    });
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);

    const sent = await rpc(app.url, '/token', 'transfer', [
      { from: address, to, amount, tempKey, hashKey, signature },
    ]);
    expect(sent.result.resultCode).toBe('200');
    expect(sent.result.TransactionID).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sent.result.resultData).toBe(sent.result.TransactionID);

    const receipt = await receiptOf(chain.url, sent.result.TransactionID);
    expect(receipt.status).toBe('0x1');
    expect(Number(receipt.blockNumber)).toBeGreaterThan(0);
    const tx = await chainCall(chain.url, 'eth_getTransactionByHash', [sent.result.TransactionID]);
    expect(tx.from.toLowerCase()).toBe(address.toLowerCase());
    expect(tx.to.toLowerCase()).toBe(to.toLowerCase());
    expect(BigInt(tx.value)).toBe(BigInt(amount));
    expect(tx.type).toBe('0x2'); // EIP-1559 on a chain with a base fee

    const recipient = await ok(app.url, '/token', 'getBalance', { address: to });
    expect(BigInt(recipient.balance)).toBeGreaterThanOrEqual(BigInt(amount));

    // Recorded durably: the funding and the transfer.
    const kysely = new Kysely<TokenDatabase>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: db.url, max: 1 }) }),
    });
    try {
      const rows = await kysely
        .selectFrom('token_transactions')
        .selectAll()
        .orderBy('created_at')
        .execute();
      // sent, or mined once the reconciler has been by (TX_RECONCILE_GRACE_MS after the send).
      expect(rows.map((r) => [r.kind, r.status === 'mined' ? 'sent' : r.status])).toEqual([
        ['devFunding', 'sent'],
        ['transfer', 'sent'],
      ]);
      expect(rows[1]).toMatchObject({
        hash: sent.result.TransactionID,
        from_address: address,
        value: amount,
      });
      const wallet = await kysely.selectFrom('wallet_keys').selectAll().executeTakeFirstOrThrow();
      expect(wallet.address).toBe(address);
      for (const column of [
        wallet.private_key_sealed,
        wallet.mnemonic_sealed,
        wallet.secret_key_sealed,
      ]) {
        expect(column.startsWith('v1.dev1.')).toBe(true);
        expect(column).not.toContain(secretKey);
        expect(column).not.toContain(mnemonic.split(' ')[0] as string);
      }
    } finally {
      await kysely.destroy();
    }
  });

  it('keeps its dev secrets in DATA_DIR/secrets with mode 0600', () => {
    for (const file of ['wallet-master.key', 'internal-token-did-to-token-rpc']) {
      expect(statSync(join(dataDir, 'secrets', file)).mode & 0o777).toBe(0o600);
    }
  });

  it('answers rpc.discover with the OpenRPC document of every method and its service errors', async () => {
    const answer = await rpc(app.url, '/token', 'rpc.discover');
    const doc = answer.result;
    expect(doc.openrpc).toBe('1.2.6');
    const names = doc.methods.map((m: { name: string }) => m.name);
    expect(names).toEqual([
      'createAddress',
      'importAddress',
      'getBalance',
      'net_getTempKey',
      'signData',
      'transfer',
      'createToken',
      'getTransactionStatus',
    ]);
    const transfer = doc.methods.find((m: { name: string }) => m.name === 'transfer');
    expect(transfer['x-service-errors'].map((e: { resultCode: string }) => e.resultCode)).toEqual([
      '409',
      '409',
      '404',
      '401',
      '401',
      '402',
      '400',
      '500',
      '503',
      '503',
    ]);
    const status = doc.methods.find((m: { name: string }) => m.name === 'getTransactionStatus');
    expect(status.params.map((p: { name: string }) => p.name)).toEqual(['transactionId']);
    expect(status['x-service-errors'].map((e: { resultCode: string }) => e.resultCode)).toEqual([
      '404',
      '500',
      '503',
    ]);
    const erc20 = (await rpc(app.url, '/token/erc20', 'rpc.discover')).result;
    expect(erc20.methods.map((m: { name: string }) => m.name)).toEqual([
      'name',
      'symbol',
      'decimals',
      'totalSupply',
      'balanceOf',
      'allowance',
      'transfer',
      'approve',
      'transferFrom',
    ]);
    // Every method of both documents: its params, its result (success or service error), its
    // protocol errors and its service error codes.
    const paramNames = (doc: Json, name: string): string[] =>
      doc.methods
        .find((m: { name: string }) => m.name === name)
        .params.map((p: { name: string }) => p.name);
    for (const method of [...doc.methods, ...erc20.methods]) {
      expect(Array.isArray(method.params)).toBe(true);
      for (const param of method.params) expect(param.schema).toBeDefined();
      expect(method.result.schema.oneOf).toHaveLength(2);
      expect(method.errors.length).toBeGreaterThan(0);
      expect(method['x-service-errors'].length).toBeGreaterThan(0);
      for (const e of method['x-service-errors']) {
        expect(e.resultCode).toMatch(/^[45][0-9]{2}$/);
        expect(e.when.length).toBeGreaterThan(10);
      }
    }
    expect(paramNames(doc, 'transfer')).toEqual([
      'from',
      'to',
      'amount',
      'tempKey',
      'hashKey',
      'signature',
    ]);
    expect(paramNames(doc, 'net_getTempKey')).toEqual(['address', 'keyType']);
    expect(paramNames(erc20, 'approve')).toEqual([
      'from',
      'contract',
      'to',
      'amount',
      'tempKey',
      'hashKey',
      'signature',
    ]);
    const getBalance = doc.methods.find((m: { name: string }) => m.name === 'getBalance');
    expect(getBalance['x-service-errors'].map((e: { resultCode: string }) => e.resultCode)).toEqual(
      ['500', '503'],
    );
  });

  it('is ready when Redis, the database and the chain answer', async () => {
    const res = await fetch(`${app.url}/health/ready`);
    expect(res.status).toBe(200);
  });
});
