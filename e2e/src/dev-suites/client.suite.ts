/**
 * The SDK (@itp/client) against the dev stack of `npm start`: password login, Sign-In with
 * Ethereum with a linked address (and refused once it is unlinked), a wallet and the transfer
 * flow until mined, DID, VC and VP, the QR login of a web site approved by the phone side,
 * getBlock of the transfer's block, the typed errors of real answers, and the README's quick
 * start run as the README says.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { Wallet } from 'ethers';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  AddressNotLinkedError,
  createClient,
  InsufficientFundsError,
  InvalidCredentialsError,
  InvalidParamsRpcError,
  ItpError,
  LoginRequestPendingError,
  LoginRequestUnknownError,
  MethodNotFoundRpcError,
  NetworkError,
  NotFoundError,
  SiweRefusedError,
  WalletAuthorizationError,
  type CreatedWallet,
  type ItpClient,
  type LoginPoll,
  type LoginResult,
  type VerifiableCredential,
} from '@itp/client';
import { REPO_ROOT, runProcess } from '@itp/harness';
import { freePort } from '@itp/testing';
import type { DevSuite } from './context.js';

const DEMO = { id: 'demo', password: 'demo-password' };
const DEMO_SITE = { clientId: 'demo-site', clientSecret: 'demo-site-secret' };
/** A recipient nobody holds a key for (lower case: no checksum needed). */
const SINK = '0x000000000000000000000000000000000000dead';

export const clientSuite: DevSuite = ({ stack: devStack }) => {
  describe('@itp/client (the SDK) against the dev stack', () => {
    let itp: ItpClient;
    /** filled by the tests in order (each builds on the one before) */
    let login: LoginResult;
    let wallet: CreatedWallet;
    let blockNumber: number;
    let transactionId: string;
    let did: string;
    let vc: VerifiableCredential;

    beforeAll(() => {
      itp = createClient({ baseUrl: devStack().url, timeoutMs: 20_000 });
    });

    it('logs the demo user in with id and password', async () => {
      login = await itp.auth.login(DEMO);
      expect(login).toMatchObject({
        userId: 'demo',
        name: 'Demo User',
        email: 'demo@example.com',
        telNo: null,
      });
      expect(login.token.split('.')).toHaveLength(3);
      expect((await itp.auth.jwks()).keys.length).toBeGreaterThan(0);
    });

    it('links a fresh address to the user, signs in with it (SIWE) as that user, refused once unlinked', async () => {
      const me = itp.withToken(login.token);
      const account = privateKeyToAccount(generatePrivateKey());
      const linked = await me.auth.linkAddress(account);
      expect(linked).toEqual({ address: account.address, userId: login.userId });

      const siwe = await itp.auth.loginWithSiwe(account);
      expect(siwe).toMatchObject({ userId: login.userId, name: login.name, email: login.email });
      expect(siwe.token.split('.')).toHaveLength(3);
      // An ethers Wallet signs the same way.
      const ethersWallet = Wallet.createRandom();
      await me.auth.linkAddress(ethersWallet);
      expect((await itp.auth.loginWithSiwe(ethersWallet)).userId).toBe(login.userId);

      await expect(me.auth.unlinkAddress(account.address)).resolves.toEqual(linked);
      const refused = await itp.auth.loginWithSiwe(account).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SiweRefusedError);
      expect(refused).toMatchObject({ status: 401, operation: '/v2/auth/auth-user-with-siwe' });
      await expect(me.auth.unlinkAddress(account.address)).rejects.toBeInstanceOf(
        AddressNotLinkedError,
      );
      await me.auth.unlinkAddress(ethersWallet.address);
    });

    it('creates a funded wallet and transfers with the SDK flow until mined', async () => {
      wallet = await itp.token.createWallet();
      expect(wallet.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(BigInt((await wallet.balance()).balance)).toBeGreaterThanOrEqual(10n ** 18n);
      const before = BigInt((await itp.token.getBalance({ address: SINK })).balance);

      const sent = await wallet.transfer({ to: SINK, amount: '12345' });
      expect(sent.transactionId).toMatch(/^0x[0-9a-f]{64}$/);
      const polls: string[] = [];
      const status = await itp.token.waitForTransaction(sent.transactionId, {
        intervalMs: 200,
        onPoll: (s) => polls.push(s.status),
      });
      expect(status).toMatchObject({
        status: 'mined',
        final: true,
        kind: 'transfer',
        amount: '12345',
      });
      expect(BigInt((await itp.token.getBalance({ address: SINK })).balance)).toBe(before + 12345n);
      transactionId = sent.transactionId;
      blockNumber = status.blockNumber as number;
    });

    it('reads the block and the receipt of the transfer', async () => {
      const block = await itp.block.getBlock(blockNumber);
      expect(block.number).toBe(blockNumber);
      expect(block.transactions).toContain(transactionId);
      const full = await itp.block.getBlock(block.hash as string, { fullTransactions: true });
      expect(full.transactions).toEqual(
        expect.arrayContaining([expect.objectContaining({ hash: transactionId })]),
      );
      const receipt = await itp.block.getTransactionReceipt(transactionId);
      expect(receipt).toMatchObject({ transactionHash: transactionId, blockNumber });
      expect(await itp.block.getBlockNumber()).toBeGreaterThanOrEqual(blockNumber);
    });

    it('creates a DID bound to the user, issues and verifies a VC, creates and verifies a VP', async () => {
      const user = itp.withToken(login.token);
      const record = await user.did.createDid({
        alias: `sdk-${wallet.address.slice(2, 10)}`,
        address: wallet.address,
        secretKey: wallet.secretKey,
      });
      did = record.did;
      expect(did.toLowerCase()).toBe(`did:ethr:${wallet.address.toLowerCase()}`);

      const [issuer] = await itp.did.issuers();
      vc = await user.did.createVc({
        holder: did,
        issuer: (issuer as { did: string }).did,
        userInfo: { name: 'Demo User' },
      });
      expect(vc.credentialSubject).toMatchObject({ id: did, sub: 'demo', name: 'Demo User' });
      expect((await itp.did.verifyVc(vc)).verified).toBe(true);

      const [verifier] = await itp.did.verifiers();
      const vp = await user.did.createVp({
        holder: did,
        verifier: (verifier as { did: string }).did,
        credentials: [vc],
      });
      expect(vp.holder).toBe(did);
      expect((await itp.did.verifyVp(vp)).verified).toBe(true);
    });

    it('QR login: the web server starts and polls, the phone approves with a VP', async () => {
      const site = itp.auth.relyingParty(DEMO_SITE);
      const { requestId, waitTime } = await site.startLogin({
        requestId: 'http://localhost:8080/sdk-e2e?',
        waitTime: 60,
      });
      expect(requestId).toMatch(/^http:\/\/localhost:8080\/sdk-e2e\?requestId=\d{52}$/);
      expect(waitTime).toBe(60);

      const [verifier] = await itp.did.verifiers();
      const vp = await itp.withToken(login.token).did.createVp({
        holder: did,
        verifier: (verifier as { did: string }).did,
        credentials: [vc],
      });

      // The phone approves once the site has seen "pending" (as a real phone would, later).
      const polls: LoginPoll[] = [];
      let approved: Promise<LoginResult> | undefined;
      const result = await site.waitForLogin(requestId, {
        onPoll: (poll) => {
          polls.push(poll);
          approved ??= itp.auth.approveLogin(requestId, vp);
        },
      });
      expect(polls[0]).toMatchObject({ attempt: 1, outcome: 'pending' });
      expect(await approved).toMatchObject({ userId: 'demo' });
      expect(result).toMatchObject({ userId: 'demo', name: 'Demo User' });
      expect(result.token).not.toBe(login.token);

      // The result is handed out once: the request is gone now.
      await expect(site.cancelLogin(requestId)).rejects.toBeInstanceOf(LoginRequestUnknownError);
      // The used VP is refused (replay) — as an UnauthorizedError subclass of the VP endpoint.
      const replay = await itp.auth.loginWithVp({ vp }).catch((e: unknown) => e);
      expect(replay).toBeInstanceOf(ItpError);
      expect((replay as ItpError).code).toBe('401');
    });

    it('a pending request answers LoginRequestPendingError, and cancel ends it', async () => {
      const site = itp.auth.relyingParty(DEMO_SITE);
      const { requestId } = await site.startLogin({ requestId: 'http://localhost:8080/sdk-e2e?' });
      await expect(site.loginResult(requestId)).rejects.toBeInstanceOf(LoginRequestPendingError);
      await site.cancelLogin(requestId);
      await expect(site.cancelLogin(requestId)).resolves.toBeUndefined();
    });

    it('answers with typed errors', async () => {
      const wrong = await itp.auth
        .login({ id: 'demo', password: 'not-the-password' })
        .catch((e: unknown) => e);
      expect(wrong).toBeInstanceOf(InvalidCredentialsError);
      expect(wrong).toMatchObject({ code: '401', status: 401, source: 'rest' });

      const badAddress = await itp.token.getBalance({ address: '0x1234' }).catch((e: unknown) => e);
      expect(badAddress).toBeInstanceOf(InvalidParamsRpcError);
      expect(badAddress).toMatchObject({
        code: -32602,
        source: 'jsonrpc',
        operation: 'getBalance',
      });

      const unknown = await itp.token.call('noSuchMethod', {}).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(MethodNotFoundRpcError);

      await expect(
        wallet.transfer({ to: SINK, amount: (10n ** 30n).toString() }),
      ).rejects.toBeInstanceOf(InsufficientFundsError);
      const impostor = itp.token.wallet({ address: wallet.address, secretKey: 'f'.repeat(64) });
      await expect(impostor.transfer({ to: SINK, amount: '1' })).rejects.toBeInstanceOf(
        WalletAuthorizationError,
      );
      await expect(itp.block.getBlock(10_000_000)).rejects.toBeInstanceOf(NotFoundError);

      const nobody = createClient({ baseUrl: `http://127.0.0.1:${await freePort()}` });
      await expect(nobody.block.getBlockNumber()).rejects.toBeInstanceOf(NetworkError);
    });

    it('runs the README quick start (examples/quick-start.ts) as the README says: npx tsx', async () => {
      const run = await runProcess('npx', ['tsx', 'libs/client/examples/quick-start.ts'], {
        label: 'the @itp/client quick start',
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ITP_BASE_URL: devStack().url },
        timeoutMs: 60_000,
      });
      expect(run.stderr).not.toMatch(/Error/);
      expect(run.code).toBe(0);
      const printed = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Record<
        string,
        unknown
      >;
      expect(printed).toMatchObject({
        user: 'demo',
        transfer: 'mined',
        vcVerified: true,
        vpVerified: true,
      });
    }, 90_000);
  });
};
