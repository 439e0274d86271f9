import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunningAnvil } from '@itp/dev-chain';
import {
  createTestDatabase,
  spawnApp,
  uniquePrefix,
  type SpawnedApp,
  type TestDatabase,
} from '@itp/testing';
import {
  ONE_ETH,
  chainCall,
  createAddress,
  ok,
  receiptOf,
  rpc,
  sha256,
  startFundedTestChain,
  startTokenApp,
  type Json,
  type TokenTestApp,
} from './testing/token-test-kit.js';

/** The gateway as its own process (apps never import apps), routing to `tokenUrl`. */
function spawnGateway(tokenUrl: string): Promise<SpawnedApp> {
  const unused = 'http://127.0.0.1:9';
  return spawnApp(
    'gateway',
    {
      APP_ENV: 'test',
      AUTH_SERVICE_URL: unused,
      DID_SERVICE_URL: unused,
      BLOCK_RPC_URL: unused,
      TOKEN_RPC_URL: tokenUrl,
    },
    { waitFor: 'live' },
  );
}

/**
 * The seed flow through the real gateway process (dev mode, as `npm start` runs token-rpc), against
 * the real Redis, PostgreSQL and an anvil chain: createAddress → net_getTempKey → hashKey →
 * signData → transfer → the transaction in a block; and /token/erc20 routed to its own server.
 */
describe('token-rpc through the gateway (gateway process, real Redis, PostgreSQL, chain)', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let app: TokenTestApp;
  let dataDir: string;
  let gateway: SpawnedApp;

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'token-rpc-gw-'));
    app = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix: uniquePrefix('token'),
      appEnv: 'development',
      dataDir,
    });
    gateway = await spawnGateway(app.url);
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await app?.close();
    await db?.drop();
    await chain?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the seed transfer flow end to end; the transaction is mined', async () => {
    const { address, secretKey } = await createAddress(gateway.url);
    const funded = await ok(gateway.url, '/token', 'getBalance', { address });
    expect(BigInt(funded.balance)).toBeGreaterThanOrEqual(ONE_ETH);

    const { tempKey } = await ok(gateway.url, '/token', 'net_getTempKey', {
      address,
      keyType: 'transfer',
    });
    const hashKey = sha256(`${tempKey}|${secretKey}`);
    const to = '0x000000000000000000000000000000000000bEEF';
    const amount = '1000000000000000';
    const hash = sha256(`${address}|${to}|${amount}|${tempKey}|${hashKey}`);
    const signature = await ok(gateway.url, '/token', 'signData', {
      from: address,
      hash,
      tempKey,
      hashKey,
    });
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);

    const params = { from: address, to, amount, tempKey, hashKey, signature };
    const sent = await rpc(gateway.url, '/token', 'transfer', params);
    expect(sent.result).toMatchObject({ resultCode: '200', resultMessage: 'Success' });
    expect(sent.result.TransactionID).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await receiptOf(chain.url, sent.result.TransactionID);
    expect(receipt.status).toBe('0x1');
    const tx = await chainCall(chain.url, 'eth_getTransactionByHash', [sent.result.TransactionID]);
    expect(tx.to.toLowerCase()).toBe(to.toLowerCase());
    expect(BigInt(tx.value)).toBe(BigInt(amount));

    // An identical retry gets the same answer (docs/api.md §4); another request with the used
    // tempKey is refused.
    const replay = await rpc(gateway.url, '/token', 'transfer', params);
    expect(replay.result).toEqual(sent.result);
    const other = await rpc(gateway.url, '/token', 'transfer', { ...params, amount: '1' });
    expect(other.result.resultCode).toBe('409');
  });

  it('passes service and protocol errors through unchanged (HTTP 200)', async () => {
    const { address } = await createAddress(gateway.url);
    const { tempKey } = await ok(gateway.url, '/token', 'net_getTempKey', {
      address,
      keyType: 'transfer',
    });
    const badHashKey = await rpc(gateway.url, '/token', 'signData', {
      from: address,
      hash: sha256('x'),
      tempKey,
      hashKey: sha256(`${tempKey}|not-the-secret`),
    });
    expect(badHashKey.result).toMatchObject({ resultCode: '401', resultData: '' });

    const res = await fetch(`${gateway.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).error).toEqual({
      code: -32700,
      message: 'Parse error',
      msg: 'Parse error',
    });
    const wrongType = await rpc(gateway.url, '/token', 'getBalance', { address: 42 });
    expect(wrongType.error.code).toBe(-32602);
  });

  it('routes /token/erc20 to the ERC-20 server and serves both OpenRPC documents', async () => {
    const token = (await rpc(gateway.url, '/token', 'rpc.discover')).result;
    expect(token.methods.map((m: { name: string }) => m.name)).toContain('transfer');
    expect(token.methods.map((m: { name: string }) => m.name)).toContain('createToken');
    const erc20 = (await rpc(gateway.url, '/token/erc20', 'rpc.discover')).result;
    expect(erc20.methods.map((m: { name: string }) => m.name)).toContain('transferFrom');
    expect(erc20.methods.map((m: { name: string }) => m.name)).not.toContain('createToken');
  });
});
