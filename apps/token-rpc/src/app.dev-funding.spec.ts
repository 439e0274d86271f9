import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
 * and an empty funding account is named as such. Issue 31: the funding account is topped up when
 * it runs low (it ran dry after ~1,000 addresses), and a funding that fails is a "503" that
 * leaves no wallet row behind.
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

  it('tops the funding account up when it runs low: createAddress keeps working', async () => {
    // What ran it dry before: ~1,000 createAddress calls of 10 ETH from 10,000 ETH.
    await setBalance(chain.url, FUNDER, 10n ** 15n);
    const created = await ok(app.url, '/token', 'createAddress');
    expect(BigInt((await ok(app.url, '/token', 'getBalance', created)).balance)).toBe(10n ** 19n);
    const funder = BigInt(await chainCall(chain.url, 'eth_getBalance', [FUNDER, 'latest']));
    expect(funder).toBeGreaterThan(9_900n * 10n ** 18n);
  });

  describe('behind a node that refuses', () => {
    let node: FilteringNode;
    let refusing: TokenTestApp;
    const walletRows = async () =>
      (await runSql(db.url, 'SELECT count(*)::int AS n FROM wallet_keys'))[0].n as number;

    beforeAll(async () => {
      node = await filteringNode(chain.url);
      refusing = await startTokenApp({
        chainUrl: node.url,
        databaseUrl: db.url,
        redisPrefix: uniquePrefix('token'),
        appEnv: 'development',
        dataDir,
      });
    });
    afterAll(async () => {
      await refusing?.close();
      await node?.close();
    });

    it('a funding the chain refuses: 503 "dev funding failed", and no wallet row is left', async () => {
      const rows = await walletRows();
      node.refuse.add('eth_sendRawTransaction');
      let answer;
      try {
        answer = await rpc(refusing.url, '/token', 'createAddress');
      } finally {
        node.refuse.clear();
      }
      expect(answer.result).toEqual({
        resultCode: '503',
        resultMessage: expect.stringMatching(
          /^dev funding failed: the chain refused the transaction.*; no address was created, try again$/,
        ),
        resultData: '',
      });
      expect(JSON.stringify(answer)).not.toMatch(/mnemonic|secretKey/);
      expect(await walletRows()).toBe(rows);
      expect((await rpc(refusing.url, '/token', 'createAddress')).result.resultCode).toBe('200');
      expect(await walletRows()).toBe(rows + 1);
    });

    it('an empty funding account the node does not top up: 503 naming it, no wallet row', async () => {
      const rows = await walletRows();
      const balance = BigInt(await chainCall(chain.url, 'eth_getBalance', [FUNDER, 'latest']));
      node.refuse.add('anvil_setBalance').add('hardhat_setBalance');
      await setBalance(chain.url, FUNDER, 0n);
      let answer;
      try {
        answer = await rpc(refusing.url, '/token', 'createAddress');
      } finally {
        node.refuse.clear();
        await setBalance(chain.url, FUNDER, balance);
      }
      expect(answer.result.resultCode).toBe('503');
      expect(answer.result.resultMessage).toMatch(
        new RegExp(
          `^dev funding failed: the dev funding account is empty: ${FUNDER} cannot pay DEV_FUNDING_WEI`,
        ),
      );
      expect(answer.result.resultMessage).not.toContain('the sending address cannot pay');
      expect(await walletRows()).toBe(rows);
      expect((await rpc(refusing.url, '/token', 'createAddress')).result.resultCode).toBe('200');
    });
  });
});

interface FilteringNode {
  url: string;
  /** JSON-RPC methods answered with an error instead of being passed to the node. */
  refuse: Set<string>;
  close(): Promise<void>;
}

/** A JSON-RPC pass-through to `target` that refuses the methods in `refuse` (a node that says no). */
async function filteringNode(target: string): Promise<FilteringNode> {
  const refuse = new Set<string>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: unknown; method: string };
      if (refuse.has(method)) {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            error: { code: -32000, message: `${method} refused by this node` },
          }),
        );
        return;
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (answer) => {
          res.statusCode = answer.status;
          res.setHeader('content-type', 'application/json');
          res.end(await answer.text());
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refuse,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
