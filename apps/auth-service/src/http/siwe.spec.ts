/**
 * Sign-In with Ethereum over HTTP (docs/api.md §11) against real PostgreSQL, Redis and the dev
 * chain. Messages are built by the reference implementation (`siwe`, as third-party dapps build
 * them) and signed by ethers Wallets; smart accounts are the test kit's ERC-1271 account, deployed
 * and counterfactual (ERC-6492).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Wallet } from 'ethers';

import { SiweMessage } from 'siwe';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { sha256Hex } from '@itp/crypto';
import { createTestDatabase, testChainUrl, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  counterfactualSiweTestAccount,
  deploySiweTestAccount,
  deploySiweTestAccountFactory,
  signForSmartAccount,
  wrapErc6492,
} from '@itp/testing/smart-account';
import { NO_USER_FOR_ADDRESS } from '../siwe/siwe-login.js';
import { SIWE_CONTRACT_CHECK_GAS } from '../siwe/siwe-signature-verifier.js';
import {
  newSigningKeysSecret,
  postJson,
  startAuthService,
  UNUSED_URL,
  type JsonAnswer,
  type RunningAuthService,
} from '../testing/start-auth-service.js';

/** An ethers signer (Wallet.createRandom() is an HDNodeWallet). */
type EthersSigner = Pick<Wallet, 'address' | 'signMessage'>;

interface NonceAnswer {
  nonce: string;
  domain: string;
  uri: string;
  chainId: number;
}

type MessageOverrides = Partial<{
  scheme: string;
  domain: string;
  uri: string;
  chainId: number;
  nonce: string;
  expirationTime: string;
  notBefore: string;
  address: string;
}>;

describe('Sign-In with Ethereum over HTTP (real PostgreSQL, Redis and dev chain)', () => {
  let db: TestDatabase;
  let auth: RunningAuthService;
  /** Same stores, a chain node that cannot be reached, three nonces per minute. */
  let chainDown: RunningAuthService;
  /** No chain configured: SIWE is off. */
  let off: RunningAuthService;
  let chainId: number;
  let aliceToken: string;
  let bobToken: string;
  const path = (name: string, base = auth.url) => `${base}/v2/auth/${name}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const errorOf = (answer: JsonAnswer) =>
    (answer.body as { error: { code: string; message: string } }).error;

  async function nonce(base = auth.url): Promise<NonceAnswer> {
    const answer = await postJson(path('siwe/nonce', base), {});
    expect(answer.status).toBe(200);
    return answer.body as NonceAnswer;
  }

  /** A message for `address` as a dapp builds it with the reference implementation. */
  async function message(address: string, overrides: MessageOverrides = {}, base = auth.url) {
    const issued = await nonce(base);
    return new SiweMessage({
      domain: issued.domain,
      address,
      statement: 'Sign in to the test site',
      uri: issued.uri,
      version: '1',
      chainId: issued.chainId,
      nonce: issued.nonce,
      issuedAt: new Date().toISOString(),
      ...overrides,
    }).prepareMessage();
  }

  async function signed(wallet: EthersSigner, overrides: MessageOverrides = {}, base = auth.url) {
    const text = await message(overrides.address ?? wallet.address, overrides, base);
    return { message: text, signature: await wallet.signMessage(text) };
  }

  const login = (body: unknown, base = auth.url) =>
    postJson(path('auth-user-with-siwe', base), body);
  const link = (token: string, body: unknown) =>
    postJson(path('link-address'), body, bearer(token));

  async function passwordLogin(id: string, password: string): Promise<string> {
    const answer = await postJson(path('auth-user'), { id, password });
    expect(answer.status).toBe(200);
    return (answer.body as { token: string }).token;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const client = createPublicClient({ transport: http(testChainUrl()) });
    chainId = await client.getChainId();
    const shared = {
      DATABASE_URL: db.url,
      REDIS_KEY_PREFIX: uniquePrefix('auth'),
      JWT_SIGNING_KEYS: await newSigningKeysSecret(),
    };
    auth = await startAuthService({
      ...shared,
      ETH_RPC_URL: testChainUrl(),
      CHAIN_ID: String(chainId),
      // The refusals below are all carol's, from one address: more than her per-account limit
      // (the limits themselves are tested on their own instance).
      LOGIN_MAX_FAILURES_PER_ID: '100',
    });
    chainDown = await startAuthService({
      ...shared,
      // Its own nonces and limits (its nonce limit is not the other instance's).
      REDIS_KEY_PREFIX: uniquePrefix('auth-chain-down'),
      ETH_RPC_URL: UNUSED_URL,
      CHAIN_ID: String(chainId),
      ETH_RPC_TIMEOUT_MS: '2000',
      SIWE_NONCES_PER_IP_PER_MINUTE: '3',
    });
    off = await startAuthService({ ...shared, DATABASE_URL: db.url });
    for (const id of ['alice', 'bob', 'carol']) {
      await auth.domain.userAdmin.add({
        id,
        password: `${id}-password-1`,
        name: id,
        email: `${id}@example.com`,
      });
    }
    aliceToken = await passwordLogin('alice', 'alice-password-1');
    bobToken = await passwordLogin('bob', 'bob-password-1');
  });

  afterAll(async () => {
    await Promise.all([auth?.close(), chainDown?.close(), off?.close()]);
    await db?.drop();
  });

  it('answers a fresh one-time nonce and the domain, URI and chain a message must carry', async () => {
    const answer = await postJson(path('siwe/nonce'), {});
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const first = answer.body as NonceAnswer;
    expect(first).toEqual({
      nonce: expect.stringMatching(/^[a-f0-9]{32}$/),
      domain: 'api.example.test',
      uri: 'https://api.example.test',
      chainId,
    });
    expect((await nonce()).nonce).not.toBe(first.nonce);
  });

  it('logs in the user an ethers Wallet is linked to with a message built by the siwe package', async () => {
    const wallet = Wallet.createRandom();
    const linked = await link(aliceToken, await signed(wallet));
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ address: wallet.address, userId: 'alice' });

    const answer = await login(await signed(wallet));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      userId: 'alice',
      name: 'alice',
      email: 'alice@example.com',
    });
    const { token } = answer.body as { token: string };
    const verified = await auth.domain.ownTokens.verify(token);
    expect(verified.userId).toBe('alice');
  });

  describe('refuses', () => {
    /** Linked to carol. */
    let wallet: EthersSigner;
    beforeAll(async () => {
      wallet = Wallet.createRandom();
      const carol = await passwordLogin('carol', 'carol-password-1');
      expect((await link(carol, await signed(wallet))).status).toBe(200);
    });

    it('a reused nonce (the same signed message twice), also after Redis forgot that it was used', async () => {
      const body = await signed(wallet);
      expect((await login(body)).status).toBe(200);
      const replay = await login(body);
      expect(replay.status).toBe(401);
      expect(errorOf(replay).message).toMatch(/nonce .*(expired|used)/);

      // A Redis that lost the use (a failover to a replica that had not seen it): the nonce is
      // back in Redis, the database's mark still refuses it.
      const used = /Nonce: (\w+)/.exec(body.message)?.[1] ?? '';
      await auth.domain.kv.set(`siwe:nonce:${sha256Hex(used)}`, String(Date.now() + 60_000), {
        ttlMs: 60_000,
      });
      expect((await login(body)).status).toBe(401);
    });

    it('the same message sent many times at once: one login', async () => {
      const body = await signed(wallet);
      const answers = await Promise.all(Array.from({ length: 6 }, () => login(body)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    });

    it('a nonce this service never issued', async () => {
      const text = new SiweMessage({
        domain: 'api.example.test',
        address: wallet.address,
        uri: 'https://api.example.test',
        version: '1',
        chainId,
        nonce: 'madeUpNonce12345',
      }).prepareMessage();
      const answer = await login({ message: text, signature: await wallet.signMessage(text) });
      expect(answer.status).toBe(401);
      expect(errorOf(answer).message).toMatch(/nonce/);
    });

    it('an expired message', async () => {
      const answer = await login(
        await signed(wallet, { expirationTime: new Date(Date.now() - 120_000).toISOString() }),
      );
      expect(answer.status).toBe(401);
      expect(errorOf(answer).message).toMatch(/expired/);
    });

    it('a message not valid yet', async () => {
      const answer = await login(
        await signed(wallet, { notBefore: new Date(Date.now() + 600_000).toISOString() }),
      );
      expect(answer.status).toBe(401);
      expect(errorOf(answer).message).toMatch(/not valid yet/);
    });

    it('a message for another domain (a phishing site relaying our nonce)', async () => {
      const answer = await login(await signed(wallet, { domain: 'api.example.test.evil.example' }));
      expect(answer.status).toBe(401);
      expect(errorOf(answer).message).toMatch(/not for this service/);
      // Our domain with another scheme than PUBLIC_URL's is not ours either; ours is.
      const http = await login(await signed(wallet, { scheme: 'http' }));
      expect(http.status).toBe(401);
      expect(errorOf(http).message).toMatch(/not for this service/);
      expect((await login(await signed(wallet, { scheme: 'https' }))).status).toBe(200);
    });

    it('a message for another chain', async () => {
      const answer = await login(await signed(wallet, { chainId: chainId === 1 ? 5 : 1 }));
      expect(answer.status).toBe(401);
      expect(errorOf(answer).message).toMatch(/chain/);
    });

    it('a message for another URI', async () => {
      for (const uri of ['https://evil.example/login', 'https://api.example.test.evil.example/']) {
        const answer = await login(await signed(wallet, { uri }));
        expect([uri, answer.status]).toEqual([uri, 401]);
        expect(errorOf(answer).message).toMatch(/URI/);
      }
      // A URL below PUBLIC_URL is this service's.
      expect(
        (await login(await signed(wallet, { uri: 'https://api.example.test/login' }))).status,
      ).toBe(200);
    });

    it("another address's signature", async () => {
      const other = Wallet.createRandom();
      const text = await message(wallet.address);
      const answer = await login({ message: text, signature: await other.signMessage(text) });
      expect(answer.status).toBe(401);
      expect(errorOf(answer).message).toMatch(/signature is not/);
      // The nonce was not used up by the failed attempt: the rightful signer may still use it.
      expect(
        (await login({ message: text, signature: await wallet.signMessage(text) })).status,
      ).toBe(200);
    });

    it('an address linked to nobody', async () => {
      const answer = await login(await signed(Wallet.createRandom()));
      expect(answer.status).toBe(401);
      expect(errorOf(answer)).toEqual({ code: '401', message: NO_USER_FOR_ADDRESS });
    });

    it('the address of a disabled user (and logs in again once enabled)', async () => {
      await auth.domain.userAdmin.setEnabled('carol', false);
      try {
        const answer = await login(await signed(wallet));
        expect(answer.status).toBe(401);
        expect(errorOf(answer)).toEqual({ code: '401', message: NO_USER_FOR_ADDRESS });
      } finally {
        await auth.domain.userAdmin.setEnabled('carol', true);
      }
      expect((await login(await signed(wallet))).status).toBe(200);
    });

    it('a message that is no EIP-4361 message, or a signature that is no hex (400)', async () => {
      const bad = await login({ message: 'hello', signature: '0x00' });
      expect(bad.status).toBe(400);
      expect(errorOf(bad).message).toMatch(/EIP-4361/);
      const notHex = await login({ message: await message(wallet.address), signature: 'xyz' });
      expect(notHex.status).toBe(400);
      expect((await login({ message: 42 })).status).toBe(400);
      // A first line that names someone else is refused before the grammar runs (a long
      // hostile authority costs the grammar parser a tenth of a second).
      const hostile = (await message(wallet.address)).replace(
        /^[^\n]*(?= wants you)/,
        'a'.repeat(7_000),
      );
      const refused = await login({ message: hostile, signature: '0x00' });
      expect(refused.status).toBe(401);
      expect(errorOf(refused).message).toMatch(/not for this service/);
      const noFirstLine = await login({
        message: `${'b'.repeat(7_000)}\nURI: x`,
        signature: '0x00',
      });
      expect(noFirstLine.status).toBe(400);
      expect(errorOf(noFirstLine).message).toMatch(/first line/);
      expect((await login('{"message":')).status).toBe(400);
    });
  });

  describe('linking addresses', () => {
    it('links one address to one user only; linking it again to the same user is fine', async () => {
      const wallet = Wallet.createRandom();
      expect((await link(aliceToken, await signed(wallet))).status).toBe(200);
      expect((await link(aliceToken, await signed(wallet))).status).toBe(200);
      const taken = await link(bobToken, await signed(wallet));
      expect(taken.status).toBe(409);
      expect(errorOf(taken).code).toBe('409');
      // Concurrent links of a fresh address by two users: exactly one wins.
      const fresh = Wallet.createRandom();
      const [a, b] = await Promise.all([
        link(aliceToken, await signed(fresh)),
        link(bobToken, await signed(fresh)),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
    });

    it('needs the bearer token of a user and a valid signed message', async () => {
      const wallet = Wallet.createRandom();
      const body = await signed(wallet);
      const none = await postJson(path('link-address'), body);
      expect(none.status).toBe(401);
      const forged = await postJson(path('link-address'), body, bearer(`${aliceToken}x`));
      expect(forged.status).toBe(401);
      const text = await message(wallet.address);
      const wrong = await link(aliceToken, {
        message: text,
        signature: await Wallet.createRandom().signMessage(text),
      });
      expect(wrong.status).toBe(401);
    });

    it('unlinks: the address no longer logs in; unlinking it again is 404', async () => {
      const wallet = Wallet.createRandom();
      expect((await link(bobToken, await signed(wallet))).status).toBe(200);
      // Alice cannot unlink Bob's address.
      const foreign = await postJson(
        path('unlink-address'),
        { address: wallet.address },
        bearer(aliceToken),
      );
      expect(foreign.status).toBe(404);
      const unlinked = await postJson(
        path('unlink-address'),
        { address: wallet.address.toLowerCase() },
        bearer(bobToken),
      );
      expect(unlinked.status).toBe(200);
      expect(unlinked.body).toEqual({ address: wallet.address, userId: 'bob' });
      expect((await login(await signed(wallet))).status).toBe(401);
      const again = await postJson(
        path('unlink-address'),
        { address: wallet.address },
        bearer(bobToken),
      );
      expect(again.status).toBe(404);
      const bad = await postJson(path('unlink-address'), { address: 'nope' }, bearer(bobToken));
      expect(bad.status).toBe(400);
    });
  });

  describe('smart accounts', () => {
    let factory: Hex;
    beforeAll(async () => {
      factory = await deploySiweTestAccountFactory(testChainUrl());
    });

    it('logs in with an ERC-1271 contract account deployed on the chain', async () => {
      const ownerKey = generatePrivateKey();
      const account = await deploySiweTestAccount(
        testChainUrl(),
        factory,
        privateKeyToAddress(ownerKey),
      );
      const sign = async () => {
        const text = await message(account);
        return { message: text, signature: await signForSmartAccount(ownerKey, text) };
      };
      expect((await link(aliceToken, await sign())).status).toBe(200);
      const answer = await login(await sign());
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ userId: 'alice' });

      // Another key's signature for the account: refused by the account's contract.
      const text = await message(account);
      const refused = await login({
        message: text,
        signature: await signForSmartAccount(generatePrivateKey(), text),
      });
      expect(refused.status).toBe(401);

      // The chain node is down: a smart-account signature cannot be checked (503, not 401).
      const down = await chainDown.domain.siwe?.nonce('198.51.100.7');
      const downText = new SiweMessage({
        domain: 'api.example.test',
        address: account,
        uri: 'https://api.example.test',
        version: '1',
        chainId,
        nonce: down?.nonce ?? '',
      }).prepareMessage();
      const unavailable = await login(
        { message: downText, signature: await signForSmartAccount(ownerKey, downText) },
        chainDown.url,
      );
      expect(unavailable.status).toBe(503);
      expect(unavailable.headers.get('retry-after')).toMatch(/^\d+$/);
    });

    it('verifies an ERC-6492 signature of an account not deployed yet, and logs in with it', async () => {
      const ownerKey = generatePrivateKey();
      const salt = `0x${'ab'.repeat(32)}` as Hex;
      const counterfactual = await counterfactualSiweTestAccount(
        testChainUrl(),
        factory,
        privateKeyToAddress(ownerKey),
        salt,
      );
      const sign = async () => {
        const text = await message(counterfactual.address);
        const inner = await signForSmartAccount(ownerKey, text);
        return {
          message: text,
          signature: wrapErc6492(inner, counterfactual.factory, counterfactual.factoryData),
        };
      };
      expect((await link(bobToken, await sign())).status).toBe(200);
      const answer = await login(await sign());
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ userId: 'bob' });
      // Verified by an eth_call: nothing was deployed.
      const client = createPublicClient({ transport: http(testChainUrl()) });
      expect(await client.getCode({ address: counterfactual.address })).toBeUndefined();
      // The plain owner signature is no signature of the (undeployed) account.
      const text = await message(counterfactual.address);
      expect(
        (await login({ message: text, signature: await signForSmartAccount(ownerKey, text) }))
          .status,
      ).toBe(401);
    });
  });

  it('logs in key-holding accounts while the chain node is down (no chain call for them)', async () => {
    const wallet = Wallet.createRandom();
    expect((await link(aliceToken, await signed(wallet))).status).toBe(200);
    const answer = await login(await signed(wallet, {}, chainDown.url), chainDown.url);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ userId: 'alice' });
  });

  it('limits the nonces one client address may ask for (429 with Retry-After)', async () => {
    const from = { 'x-forwarded-for': '203.0.113.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await postJson(path('siwe/nonce', chainDown.url), {}, from)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const other = await postJson(
      path('siwe/nonce', chainDown.url),
      {},
      { 'x-forwarded-for': '203.0.113.10' },
    );
    expect(other.status).toBe(200);
  });

  describe('smart-account checks (chain calls) are bounded', () => {
    /** The chain node as the limited instance reaches it: each JSON-RPC call is recorded. */
    let proxy: Server;
    const calls: Array<{ method: string; params: unknown[] }> = [];
    /** Same stores, its own Redis prefix, two smart-account checks a minute per address. */
    let limited: RunningAuthService;
    let factory: Hex;
    const chainCalls = () => calls.filter((c) => c.method === 'eth_call');

    beforeAll(async () => {
      proxy = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const parsed = JSON.parse(body) as unknown;
          for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
            calls.push(call as { method: string; params: unknown[] });
          }
          fetch(testChainUrl(), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          })
            .then(async (answer) => {
              res.writeHead(answer.status, { 'content-type': 'application/json' });
              res.end(await answer.text());
            })
            .catch(() => res.destroy());
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      limited = await startAuthService({
        DATABASE_URL: db.url,
        REDIS_KEY_PREFIX: uniquePrefix('auth-siwe-limited'),
        ETH_RPC_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        CHAIN_ID: String(chainId),
        SIWE_CONTRACT_CHECKS_PER_IP_PER_MINUTE: '2',
      });
      factory = await deploySiweTestAccountFactory(testChainUrl());
    });

    afterAll(async () => {
      await limited?.close();
      await new Promise((resolve) => proxy?.close(resolve));
    });

    const from = (address: string) => ({ 'x-forwarded-for': address });
    const loginFrom = (address: string, body: unknown) =>
      postJson(path('auth-user-with-siwe', limited.url), body, from(address));

    /** A smart-account signature the chain refuses: another key's for a deployed account. */
    async function refusedBySmartAccount(account: Hex) {
      const text = await message(account, {}, limited.url);
      return { message: text, signature: await signForSmartAccount(generatePrivateKey(), text) };
    }

    it('limits them per client address (429 with Retry-After); key signatures never count and still log in', async () => {
      const account = await deploySiweTestAccount(
        testChainUrl(),
        factory,
        privateKeyToAddress(generatePrivateKey()),
      );
      const wallet = Wallet.createRandom();
      expect((await link(aliceToken, await signed(wallet))).status).toBe(200);
      const client = '203.0.113.70';

      // Key-holding logins make no chain call and are not counted.
      const before = chainCalls().length;
      for (let i = 0; i < 3; i += 1) {
        const answer = await loginFrom(client, await signed(wallet, {}, limited.url));
        expect(answer.status).toBe(200);
      }
      expect(chainCalls()).toHaveLength(before);

      // Two smart-account checks (each an eth_call, refused by the account: 401)…
      for (let i = 0; i < 2; i += 1) {
        expect((await loginFrom(client, await refusedBySmartAccount(account))).status).toBe(401);
      }
      expect(chainCalls().length).toBeGreaterThanOrEqual(before + 2);
      // …then 429 without asking the chain.
      const asked = chainCalls().length;
      const over = await loginFrom(client, await refusedBySmartAccount(account));
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(errorOf(over).message).toMatch(/smart-account signature checks/);
      expect(chainCalls()).toHaveLength(asked);

      // The same address still logs in with a key; another address still gets its checks.
      expect((await loginFrom(client, await signed(wallet, {}, limited.url))).status).toBe(200);
      expect((await loginFrom('203.0.113.71', await refusedBySmartAccount(account))).status).toBe(
        401,
      );
    });

    it('caps the gas of every eth_call: an ERC-6492 factory that burns gas is refused, not run to the node limit', async () => {
      // A contract that loops until its gas runs out (JUMPDEST PUSH1 0 JUMP), as the "factory".
      const sender = privateKeyToAccount(generatePrivateKey());
      await createTestClient({ mode: 'anvil', transport: http(testChainUrl()) }).setBalance({
        address: sender.address,
        value: parseEther('1'),
      });
      const hash = await createWalletClient({
        account: sender,
        transport: http(testChainUrl()),
      }).sendTransaction({ data: '0x635b6000566000526004601cf3' as Hex, chain: null });
      const receipt = await createPublicClient({
        transport: http(testChainUrl()),
      }).waitForTransactionReceipt({ hash, pollingInterval: 20 });
      const burner = receipt.contractAddress!;

      const before = chainCalls().length;
      const counterfactual = privateKeyToAddress(generatePrivateKey());
      const text = await message(counterfactual, {}, limited.url);
      const signature = wrapErc6492(
        await signForSmartAccount(generatePrivateKey(), text),
        burner,
        '0x',
      );
      const answer = await loginFrom('203.0.113.72', { message: text, signature });
      expect(answer.status).toBe(401);
      const sent = chainCalls().slice(before);
      expect(sent.length).toBeGreaterThan(0);
      for (const call of sent) {
        expect((call.params[0] as { gas?: string }).gas).toBe(
          `0x${SIWE_CONTRACT_CHECK_GAS.toString(16)}`,
        );
      }
    });
  });

  describe('failures count per method and per account', () => {
    /** Same stores, its own Redis prefix: 3 failures per address (SIWE and password), 2 per account. */
    let strict: RunningAuthService;
    beforeAll(async () => {
      strict = await startAuthService({
        DATABASE_URL: db.url,
        REDIS_KEY_PREFIX: uniquePrefix('auth-siwe-failures'),
        ETH_RPC_URL: testChainUrl(),
        CHAIN_ID: String(chainId),
        SIWE_MAX_FAILURES_PER_IP: '3',
        LOGIN_MAX_FAILURES_PER_IP: '3',
        LOGIN_MAX_FAILURES_PER_ID: '2',
      });
    });
    afterAll(async () => {
      await strict?.close();
    });

    const from = (client: string) => ({ 'x-forwarded-for': client });
    const siweFrom = (client: string, body: unknown) =>
      postJson(path('auth-user-with-siwe', strict.url), body, from(client));
    const passwordFrom = (client: string, id: string, password: string) =>
      postJson(path('auth-user', strict.url), { id, password }, from(client));
    /** A message for `address` signed by a key that is not its own. */
    async function badlySigned(address: string) {
      const text = await message(address, {}, strict.url);
      return { message: text, signature: await Wallet.createRandom().signMessage(text) };
    }

    it("N bad signatures from one address: SIWE gets 429 there, the address's password logins still work", async () => {
      const client = '203.0.113.80';
      const wallet = Wallet.createRandom();
      expect((await link(aliceToken, await signed(wallet))).status).toBe(200);
      for (let i = 0; i < 3; i += 1) {
        expect(
          (await siweFrom(client, await badlySigned(Wallet.createRandom().address))).status,
        ).toBe(401);
      }
      // SIWE itself is still limited per address, even with a good signature…
      const over = await siweFrom(client, await signed(wallet, {}, strict.url));
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(errorOf(over).message).toMatch(/Sign-In with Ethereum messages from this address/);
      // …but a colleague's password login from the same address works (before: 429, login-ip).
      const password = await passwordFrom(client, 'bob', 'bob-password-1');
      expect(password.status).toBe(200);
      // Another address still signs in with Ethereum.
      expect((await siweFrom('203.0.113.81', await signed(wallet, {}, strict.url))).status).toBe(
        200,
      );
    });

    it('the password per-address limit still holds for password failures (and does not block SIWE)', async () => {
      const client = '203.0.113.82';
      for (let i = 0; i < 3; i += 1) {
        expect((await passwordFrom(client, `nobody-${i}`, 'wrong-password')).status).toBe(401);
      }
      const over = await passwordFrom(client, 'bob', 'bob-password-1');
      expect(over.status).toBe(429);
      const wallet = Wallet.createRandom();
      expect((await link(bobToken, await signed(wallet))).status).toBe(200);
      expect((await siweFrom(client, await signed(wallet, {}, strict.url))).status).toBe(200);
    });

    it("a linked account's failures are counted per account: its SIWE gets 429 from that address, other accounts' still work", async () => {
      const client = '203.0.113.83';
      const target = Wallet.createRandom();
      const other = Wallet.createRandom();
      expect((await link(aliceToken, await signed(target))).status).toBe(200);
      expect((await link(bobToken, await signed(other))).status).toBe(200);
      for (let i = 0; i < 2; i += 1) {
        expect((await siweFrom(client, await badlySigned(target.address))).status).toBe(401);
      }
      const over = await siweFrom(client, await signed(target, {}, strict.url));
      expect(over.status).toBe(429);
      expect(errorOf(over).message).toMatch(/for this account from this address/);
      expect((await siweFrom(client, await signed(other, {}, strict.url))).status).toBe(200);
      // The owner elsewhere is not locked out.
      expect((await siweFrom('203.0.113.84', await signed(target, {}, strict.url))).status).toBe(
        200,
      );
    });
  });

  it('answers 404 on every SIWE route when no chain is configured', async () => {
    for (const name of ['siwe/nonce', 'auth-user-with-siwe', 'link-address', 'unlink-address']) {
      const answer = await postJson(path(name, off.url), {}, bearer(aliceToken));
      expect([name, answer.status, errorOf(answer).code]).toEqual([name, 404, '404']);
      expect(errorOf(answer).message).toMatch(/not enabled/);
    }
  });
});
