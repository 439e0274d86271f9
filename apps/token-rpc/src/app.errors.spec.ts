import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEV_CHAIN, type RunningAnvil } from '@itp/dev-chain';
import { RedisKvStore } from '@itp/stores';
import {
  createTestDatabase,
  waitFor,
  freePort,
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
  rpc,
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

/** The checksummed address with the case of its first letter flipped: a wrong EIP-55 checksum. */
function wrongChecksum(address: string): string {
  const i = address.slice(2).search(/[a-fA-F]/) + 2;
  const c = address.charAt(i);
  const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  return address.slice(0, i) + flipped + address.slice(i + 1);
}

function serviceError(answer: {
  result?: { resultCode: string; resultMessage: string; resultData: string };
}) {
  expect(answer.result).toBeDefined();
  expect(answer.result?.resultData).toBe('');
  return { code: answer.result?.resultCode, message: answer.result?.resultMessage };
}

/** Every error path of /token, in test mode (no dev funding), against its own anvil. */
describe('token-rpc errors', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let app: TokenTestApp;
  let alice: TestWallet;
  let bob: TestWallet;
  let redisPrefix: string;

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    redisPrefix = uniquePrefix('token');
    app = await startTokenApp({ chainUrl: chain.url, databaseUrl: db.url, redisPrefix });
    alice = await createAddress(app.url);
    bob = await createAddress(app.url);
    await setBalance(chain.url, alice.address, ONE_ETH);
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await chain?.stop();
  });

  describe('createAddress / importAddress', () => {
    it('does not fund new addresses outside dev mode', async () => {
      expect((await ok(app.url, '/token', 'getBalance', { address: bob.address })).balance).toBe(
        '0',
      );
    });

    it('refuses a malformed mnemonic with 400 and a clear message', async () => {
      const answer = await rpc(app.url, '/token', 'importAddress', {
        mnemonic: 'not a mnemonic at all',
      });
      expect(serviceError(answer)).toEqual({
        code: '400',
        message:
          'mnemonic is not a valid BIP-39 phrase (English word list, 12-24 words, valid checksum)',
      });
      const missing = await rpc(app.url, '/token', 'importAddress', {});
      expect(missing.error.code).toBe(-32602);
      expect(missing.error.msg).toBe(missing.error.message);
    });

    it('restores the same address with a new secretKey; the old one stops working at once', async () => {
      const wallet = await createAddress(app.url);
      const { tempKey } = await ok(app.url, '/token', 'net_getTempKey', {
        address: wallet.address,
        keyType: 'transfer',
      });
      const imported = await ok(app.url, '/token', 'importAddress', { mnemonic: wallet.mnemonic });
      expect(imported.address).toBe(wallet.address);
      expect(imported.secretKey).not.toBe(wallet.secretKey);
      const hash = sha256('anything');
      const old = await rpc(app.url, '/token', 'signData', {
        from: wallet.address,
        hash,
        tempKey,
        hashKey: sha256(`${tempKey}|${wallet.secretKey}`),
      });
      expect(serviceError(old).code).toBe('401');
      const renewed = await rpc(app.url, '/token', 'signData', {
        from: wallet.address,
        hash,
        tempKey,
        hashKey: sha256(`${tempKey}|${imported.secretKey}`),
      });
      expect(renewed.result.resultCode).toBe('200');
    });

    it('imports a mnemonic it never saw (the standard path)', async () => {
      // The BIP-39 test vector "abandon … about" (all-zero entropy), account m/44'/60'/0'/0/0.
      const imported = await ok(app.url, '/token', 'importAddress', [
        { mnemonic: `${'abandon '.repeat(11)}about` },
      ]);
      expect(imported.address).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    });

    it("refuses (403) the dev chain's public mnemonic, however it is written, and stores nothing", async () => {
      for (const mnemonic of [
        DEV_CHAIN.mnemonic,
        `  ${DEV_CHAIN.mnemonic.toUpperCase().split(' ').join('   ')}\n`,
      ]) {
        const answer = await rpc(app.url, '/token', 'importAddress', { mnemonic });
        expect(serviceError(answer)).toEqual({
          code: '403',
          message:
            'this mnemonic is the public test mnemonic of the dev chain (anvil/hardhat): its keys are ' +
            'known to everyone, so the wallet refuses to import it; use createAddress or your own mnemonic',
        });
        expect(JSON.stringify(answer)).not.toContain('secretKey');
      }
      const tempKey = await rpc(app.url, '/token', 'net_getTempKey', {
        address: DEV_CHAIN.devOnlyAccount0.address,
        keyType: 'transfer',
      });
      expect(serviceError(tempKey).code).toBe('404');
    });
  });

  describe('net_getTempKey', () => {
    it('404 for an address that is not in the wallet', async () => {
      const answer = await rpc(app.url, '/token', 'net_getTempKey', {
        address: TO,
        keyType: 'transfer',
      });
      expect(serviceError(answer)).toEqual({
        code: '404',
        message: `${TO} is not a wallet address of this service (createAddress or importAddress it)`,
      });
    });

    it('-32602 for a missing or unknown keyType and a malformed address', async () => {
      for (const params of [
        { address: alice.address },
        { address: alice.address, keyType: 'withdraw' },
        { address: '0x1234', keyType: 'transfer' },
        {
          address: wrongChecksum(alice.address),
          keyType: 'transfer',
        },
      ]) {
        const answer = await rpc(app.url, '/token', 'net_getTempKey', params);
        expect(answer.error?.code).toBe(-32602);
        expect(answer.error.data.issues.length).toBeGreaterThan(0);
      }
      const unknownKeyType = await rpc(app.url, '/token', 'net_getTempKey', {
        address: alice.address,
        keyType: 'withdraw',
      });
      expect(unknownKeyType.error.data.issues[0]).toEqual({
        path: ['keyType'],
        message: 'must be one of transfer, createToken, erc20',
      });
    });

    it('accepts lower-case and checksummed addresses alike', async () => {
      const answer = await rpc(app.url, '/token', 'net_getTempKey', {
        address: alice.address.toLowerCase(),
        keyType: 'transfer',
      });
      expect(answer.result.resultData.tempKey).toMatch(/^[0-9a-f]{64}$/);
    });
  });

  describe('signData', () => {
    it('checks tempKey, its address and hashKey; does not consume the tempKey', async () => {
      const { tempKey } = await ok(app.url, '/token', 'net_getTempKey', {
        address: alice.address,
        keyType: 'transfer',
      });
      const hashKey = sha256(`${tempKey}|${alice.secretKey}`);
      const hash = `0x${sha256('payload')}`;
      const params = { from: alice.address, hash, tempKey, hashKey };
      expect((await rpc(app.url, '/token', 'signData', params)).result.resultCode).toBe('200');
      expect((await rpc(app.url, '/token', 'signData', params)).result.resultCode).toBe('200');

      expect(
        serviceError(
          await rpc(app.url, '/token', 'signData', { ...params, hashKey: sha256('wrong') }),
        ),
      ).toEqual({
        code: '401',
        message: 'hashKey does not match: it must be the hex SHA-256 of "<tempKey>|<secretKey>"',
      });
      const unknown = await rpc(app.url, '/token', 'signData', {
        ...params,
        tempKey: 'f'.repeat(64),
      });
      expect(serviceError(unknown)).toEqual({
        code: '409',
        message: 'tempKey is unknown, expired or already used: get a new one with net_getTempKey',
      });
      const otherAddress = await rpc(app.url, '/token', 'signData', {
        ...params,
        from: bob.address,
      });
      expect(serviceError(otherAddress)).toEqual({
        code: '409',
        message: 'tempKey was issued for another address',
      });
      expect(
        serviceError(await rpc(app.url, '/token', 'signData', { ...params, from: TO })).code,
      ).toBe('404');
      expect(
        (await rpc(app.url, '/token', 'signData', { ...params, hash: '0x12' })).error.code,
      ).toBe(-32602);
    });

    it('409 once the tempKey expired (TEMP_KEY_TTL_MS)', async () => {
      // A second instance on the same data, with tempKeys that live 300 ms.
      const shortLived = await startTokenApp({
        chainUrl: chain.url,
        databaseUrl: db.url,
        redisPrefix,
        env: { TEMP_KEY_TTL_MS: '300' },
      });
      const kv = new RedisKvStore({ url: testRedisUrl(), keyPrefix: redisPrefix });
      try {
        const { tempKey } = await ok(shortLived.url, '/token', 'net_getTempKey', {
          address: alice.address,
          keyType: 'transfer',
        });
        // Redis forgets it after its 300 ms (its TTL, on Redis's clock): wait for that, then ask.
        await waitFor(async () => (await kv.get(`tempkey:${tempKey as string}`)) === null, {
          what: 'the tempKey expired',
          timeoutMs: 5_000,
        });
        const answer = await rpc(shortLived.url, '/token', 'signData', {
          from: alice.address,
          hash: sha256('x'),
          tempKey,
          hashKey: sha256(`${tempKey}|${alice.secretKey}`),
        });
        expect(serviceError(answer).code).toBe('409');
      } finally {
        await kv.close();
        await shortLived.close();
      }
    });
  });

  describe('transfer', () => {
    it('401 for a signature that does not recover from; the tempKey is consumed anyway', async () => {
      const params = await transferParams(app.url, alice, TO, '1000');
      const tampered = { ...params, amount: '2000' };
      const message =
        'signature does not recover the from address: sign the SHA-256 of "from|to|amount|tempKey|hashKey" with signData';
      expect(serviceError(await rpc(app.url, '/token', 'transfer', tampered))).toEqual({
        code: '401',
        message,
      });
      expect(serviceError(await rpc(app.url, '/token', 'transfer', params)).code).toBe('409');
      // The identical request again gets its own answer, marked as a replay.
      expect(serviceError(await rpc(app.url, '/token', 'transfer', tampered))).toEqual({
        code: '401',
        message: `${message} (the answer of the first request with this tempKey, which is used: get a new tempKey to try again)`,
      });
    });

    it('401 for a signature made by another wallet address', async () => {
      const params = await transferParams(app.url, alice, TO, '1000');
      const other = await authorize(app.url, bob, 'transfer', (t, h) => [
        alice.address,
        TO,
        '1000',
        t,
        h,
      ]);
      const answer = await rpc(app.url, '/token', 'transfer', {
        ...params,
        signature: other.signature,
      });
      expect(serviceError(answer).code).toBe('401');
    });

    it('401 for a wrong hashKey', async () => {
      const params = await transferParams(app.url, alice, TO, '1000');
      const answer = await rpc(app.url, '/token', 'transfer', {
        ...params,
        hashKey: sha256('nope'),
      });
      expect(serviceError(answer).code).toBe('401');
    });

    it('409 for a tempKey of another keyType, and for a used tempKey', async () => {
      const c = await authorize(app.url, alice, 'createToken', (t, h) => [
        alice.address,
        TO,
        '1',
        t,
        h,
      ]);
      const wrongType = await rpc(app.url, '/token', 'transfer', {
        from: alice.address,
        to: TO,
        amount: '1',
        ...c,
      });
      expect(serviceError(wrongType)).toEqual({
        code: '409',
        message: 'tempKey was issued for keyType "createToken", this method needs "transfer"',
      });
      const params = await transferParams(app.url, alice, TO, '1');
      const sent = await rpc(app.url, '/token', 'transfer', params);
      expect(sent.result.resultCode).toBe('200');
      // An identical retry gets the same answer (docs/api.md §4); another request with it is 409.
      expect((await rpc(app.url, '/token', 'transfer', params)).result).toEqual(sent.result);
      expect(
        serviceError(await rpc(app.url, '/token', 'transfer', { ...params, amount: '2' })).code,
      ).toBe('409');
    });

    it('402 when the address cannot pay amount + gas; nothing is sent', async () => {
      const nonceBefore = await chainCall(chain.url, 'eth_getTransactionCount', [
        bob.address,
        'pending',
      ]);
      const params = await transferParams(app.url, bob, TO, '1');
      const answer = await rpc(app.url, '/token', 'transfer', params);
      expect(serviceError(answer).code).toBe('402');
      expect(answer.result.resultMessage).toMatch(/cannot pay amount \+ gas/);
      const tooMuch = await transferParams(app.url, alice, TO, (2n * ONE_ETH).toString());
      expect(serviceError(await rpc(app.url, '/token', 'transfer', tooMuch)).code).toBe('402');
      expect(await chainCall(chain.url, 'eth_getTransactionCount', [bob.address, 'pending'])).toBe(
        nonceBefore,
      );
    });

    it('-32602 (never -32603, never a consumed tempKey) for malformed params', async () => {
      const params = await transferParams(app.url, alice, TO, '5');
      for (const bad of [
        { ...params, amount: '1.5' },
        { ...params, amount: '-1' },
        { ...params, amount: 5 },
        { ...params, amount: (1n << 256n).toString() },
        { ...params, to: 'dead' },
        { ...params, signature: '0x1234' },
        { ...params, hashKey: 'xyz' },
        { ...params, tempKey: undefined },
      ]) {
        expect((await rpc(app.url, '/token', 'transfer', bad)).error.code).toBe(-32602);
      }
      expect((await rpc(app.url, '/token', 'transfer', params)).result.resultCode).toBe('200');
    });
  });

  describe('protocol', () => {
    it('answers unknown methods, rpc.* names and bad envelopes per JSON-RPC 2.0', async () => {
      expect((await rpc(app.url, '/token', 'noSuchMethod', {})).error.code).toBe(-32601);
      const res = await fetch(`${app.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{bad',
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as Json).error).toEqual({
        code: -32700,
        message: 'Parse error',
        msg: 'Parse error',
      });
    });
  });
});

describe('token-rpc with the chain node down', () => {
  let db: TestDatabase;
  let app: TokenTestApp;

  beforeAll(async () => {
    db = await createTestDatabase();
    app = await startTokenApp({
      chainUrl: `http://127.0.0.1:${await freePort()}`,
      databaseUrl: db.url,
      redisPrefix: uniquePrefix('token'),
      env: { ETH_RPC_TIMEOUT_MS: '1000' },
    });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('says so with its own code 503 for reads and transactions; the wallet still works', async () => {
    const wallet = await createAddress(app.url);
    const balance = await rpc(app.url, '/token', 'getBalance', { address: wallet.address });
    expect(serviceError(balance)).toEqual({
      code: '503',
      message: expect.stringMatching(/^Chain node unavailable: connection failed/),
    });
    const tokenBalance = await rpc(app.url, '/token/erc20', 'balanceOf', {
      contract: TO,
      address: wallet.address,
    });
    expect(serviceError(tokenBalance)).toEqual({
      code: '503',
      message: expect.stringMatching(/^Chain node unavailable/),
    });
    const params = await transferParams(app.url, wallet, TO, '1');
    const sent = await rpc(app.url, '/token', 'transfer', params);
    expect(serviceError(sent)).toEqual({
      code: '503',
      message: expect.stringMatching(/^Chain node unavailable/),
    });
    // The tempKey was consumed by that attempt: nothing can be sent twice with it. The identical
    // request gets the same answer again; another one is 409.
    expect(serviceError(await rpc(app.url, '/token', 'transfer', params))).toEqual({
      code: '503',
      message: expect.stringMatching(/^Chain node unavailable.*get a new tempKey to try again\)$/),
    });
    expect(
      serviceError(await rpc(app.url, '/token', 'transfer', { ...params, amount: '2' })).code,
    ).toBe('409');
    const ready = await fetch(`${app.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as Json).notReady).toEqual(['chain']);
  });
});

describe('token-rpc start-up with CHAIN_ID', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
    await chain?.stop();
  });

  it('refuses to start when the node serves another chain, starts on the right one', async () => {
    const actual = Number(await chainCall(chain.url, 'eth_chainId'));
    const start = (chainId: number) =>
      startTokenApp({
        chainUrl: chain.url,
        databaseUrl: db.url,
        redisPrefix: uniquePrefix('token'),
        env: { CHAIN_ID: String(chainId) },
      });
    await expect(start(actual + 1)).rejects.toThrow(
      `Chain id mismatch: configured CHAIN_ID ${actual + 1}, node serves ${actual}`,
    );
    const app = await start(actual);
    try {
      expect((await fetch(`${app.url}/health/ready`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('refuses to start when CHAIN_ID is set and the node cannot be reached', async () => {
    await expect(
      startTokenApp({
        chainUrl: `http://127.0.0.1:${await freePort()}`,
        databaseUrl: db.url,
        redisPrefix: uniquePrefix('token'),
        env: { CHAIN_ID: '31337', ETH_RPC_TIMEOUT_MS: '1000' },
      }),
    ).rejects.toThrow(/^Chain node unavailable/);
  });
});
