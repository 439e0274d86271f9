/**
 * itp end to end: the real CLI (`node --import tsx apps/cli/src/main.ts`, what `npm run itp`
 * runs) as a child process against the dev stack (`npm start`: dev chain, every service,
 * the gateway; the demo user seeded, new addresses funded). Login (password, and Sign-In with
 * Ethereum with a linked key, refused once unlinked), wallet, a transfer waited for
 * until mined, its block, a DID with a credential and a presentation, the exit codes of a refused
 * login (1), bad usage (2) and an unreachable gateway (3), a QR login waited for until the phone
 * side approves it, `itp users list` handed to auth-service's operator CLI, and last the account
 * (docs/api.md §12): `itp account` with a linked address and the issued credential (valid, then
 * revoked), `account revoke-site` of a site without a grant (1), `itp logout --everywhere` (the
 * old token refused after it, `itp login` working again).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { REPO_ROOT, runProcess, type RunResult } from '@itp/harness';
import { freePort } from '@itp/testing';
import type { DevSuite } from './context.js';

const MAIN = join(REPO_ROOT, 'apps', 'cli', 'src', 'main.ts');
const PAYEE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

interface ItpOptions {
  stdin?: string;
  env?: Record<string, string>;
  /** Called with everything written to stderr so far, on each write. */
  onStderr?: (stderr: string) => void;
}

export const cliSuite: DevSuite = ({ stack: devStack }) => {
  let files: string;

  /** One itp run with a clean environment (nothing of the test runner's, e.g. its DATABASE_URL). */
  const itp = (args: string[], options: ItpOptions = {}): Promise<RunResult> =>
    runProcess(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      label: `itp ${args[0] ?? ''}`,
      cwd: REPO_ROOT,
      env: {
        ITP_URL: devStack().url,
        ...options.env,
        PATH: process.env.PATH,
        HOME: process.env.HOME,
      },
      stdin: options.stdin,
      onStderr: options.onStderr,
    });

  /** A run that must succeed; its stdout. */
  const ok = async (args: string[], options?: ItpOptions): Promise<string> => {
    const run = await itp(args, options);
    if (run.code !== 0) {
      throw new Error(`itp ${args.join(' ')} exited ${run.code}:\n${run.stderr}${run.stdout}`);
    }
    return run.stdout;
  };

  beforeAll(() => {
    files = mkdtempSync(join(tmpdir(), 'itp-cli-e2e-'));
  });

  afterAll(() => {
    rmSync(files, { recursive: true, force: true });
  });

  describe('itp (the CLI) against the dev stack', () => {
    let token: string;
    let wallet: { address: string; secretKey: string; mnemonic: string };
    let mined: { transactionId: string; blockNumber: number; status: string };
    let did: string;
    let vcFile: string;

    it('logs in: the token alone on stdout; a wrong password exits 1 with the API code', async () => {
      const login = await itp(['login', '--id', 'demo', '--password-stdin'], {
        stdin: 'demo-password\n',
      });
      expect(login.code).toBe(0);
      expect(login.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
      expect(login.stderr).toBe('logged in as Demo User (demo)\n');
      token = login.stdout.trim();

      const refused = await itp(['login', '--id', 'demo', '--password-stdin'], { stdin: 'wrong' });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/^error \[401\]/);
    });

    it("links a fresh key's address, logs in with it (login siwe) as demo, exits 1 once unlinked", async () => {
      const key = generatePrivateKey();
      const { address } = privateKeyToAccount(key);
      const keyFile = join(files, 'eth.key');
      writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
      const asDemo = { env: { ITP_TOKEN: token } };
      const linked = JSON.parse(await ok(['address', 'link', '--key-file', keyFile], asDemo));
      expect(linked).toEqual({ address, userId: 'demo' });

      const login = await itp(['login', 'siwe', '--key-file', keyFile, '--json']);
      expect([login.code, login.stderr]).toEqual([
        0,
        `logged in as Demo User (demo) with ${address}\n`,
      ]);
      expect(JSON.parse(login.stdout)).toMatchObject({ userId: 'demo', name: 'Demo User' });

      expect(JSON.parse(await ok(['address', 'unlink', address], asDemo))).toEqual(linked);
      const refused = await itp(['login', 'siwe', '--key-file', keyFile]);
      expect([refused.code, refused.stdout]).toEqual([1, '']);
      expect(refused.stderr).toMatch(/^error \[401\] \(\/v2\/auth\/auth-user-with-siwe\): /);
    });

    it('creates a funded wallet and shows its balance', async () => {
      const walletKey = join(files, 'wallet.key');
      wallet = JSON.parse(await ok(['wallet', 'create', '--json', '--key-file', walletKey]));
      expect(wallet.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(wallet.secretKey).toMatch(/^[0-9a-f]{64}$/);
      // The exported key is the address's own (token-rpc's derivation); the secretKey is not.
      const key = readFileSync(walletKey, 'utf8').trim() as `0x${string}`;
      expect(privateKeyToAccount(key).address).toBe(wallet.address);
      const secretKeyFile = join(files, 'secret.key');
      writeFileSync(secretKeyFile, wallet.secretKey, { mode: 0o600 });
      const other = privateKeyToAccount(`0x${wallet.secretKey}`).address;
      const refused = await itp(
        ['address', 'link', '--key-file', secretKeyFile, '--address', wallet.address],
        { env: { ITP_TOKEN: token } },
      );
      expect([refused.code, refused.stderr]).toEqual([
        2,
        expect.stringContaining(`is the key of ${other}, not of --address ${wallet.address}`),
      ]);
      const balance = await ok(['wallet', 'balance', wallet.address]);
      expect(balance).toBe(
        `address  ${wallet.address}\nbalance  10000000000000000000 wei (10 ETH)\n`,
      );
    });

    it('transfers with the secret key from stdin and waits until mined', async () => {
      mined = JSON.parse(
        await ok(
          [
            'wallet',
            'transfer',
            '--from',
            wallet.address,
            '--to',
            PAYEE,
            '--amount',
            '1.5eth',
            '--secret-key-stdin',
            '--wait',
            '--json',
          ],
          { stdin: wallet.secretKey },
        ),
      );
      expect(mined).toMatchObject({ status: 'mined', final: true, amount: '1500000000000000000' });
      expect(mined.blockNumber).toBeGreaterThan(0);
      const status = await ok(['tx', 'status', mined.transactionId]);
      expect(status).toContain(`transactionId    ${mined.transactionId}\n`);
      expect(status).toContain('amount           1500000000000000000 wei (1.5 ETH)\n');
    });

    it("gets the transfer's block, as a listing and as JSON", async () => {
      const text = await ok(['block', 'get', String(mined.blockNumber)]);
      expect(text).toContain(`number         ${mined.blockNumber}\n`);
      expect(text).toContain(mined.transactionId);
      const block = JSON.parse(await ok(['block', 'get', String(mined.blockNumber), '--json']));
      expect(block.number).toBe(mined.blockNumber);
      expect(block.transactions).toContain(mined.transactionId);
    });

    it('creates a bound DID, issues and verifies a VC, presents and verifies a VP', async () => {
      const withToken = { env: { ITP_TOKEN: token } };
      did = JSON.parse(
        await ok(
          [
            'did',
            'create',
            '--alias',
            'cli-e2e',
            '--address',
            wallet.address,
            '--secret-key-stdin',
            '--json',
          ],
          { ...withToken, stdin: wallet.secretKey },
        ),
      ).did as string;
      expect(did).toBe(`did:ethr:${wallet.address}`);

      const vc = await ok(['vc', 'issue', '--holder', did, '--claim', 'name=Demo User'], withToken);
      expect(JSON.parse(vc).credentialSubject).toMatchObject({
        id: did,
        sub: 'demo',
        name: 'Demo User',
      });
      vcFile = join(files, 'vc.json');
      writeFileSync(vcFile, vc);
      expect(await ok(['vc', 'verify', vcFile])).toMatch(/^verified {2}true\n/);

      const vp = await ok(['vp', 'create', '--holder', did, '--vc', vcFile], withToken);
      expect(JSON.parse(vp).holder).toBe(did);
      expect(await ok(['vp', 'verify', '-'], { stdin: vp })).toMatch(/^verified {2}true\n/);

      // An edited credential does not verify: the result is printed, the exit code is 1.
      const edited = JSON.parse(vc);
      edited.credentialSubject.name = 'Someone Else';
      const refused = await itp(['vc', 'verify', '-', '--json'], { stdin: JSON.stringify(edited) });
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout).verified).toBe(false);
      expect(refused.stderr).toMatch(/^error \[json_mismatch\]: the VC does not verify/);
    });

    it('offers an SD-JWT VC (vc offer --format dc+sd-jwt): the offer the URI names asks for itp_profile_sd_jwt', async () => {
      const run = await itp(['vc', 'offer', '--format', 'dc+sd-jwt', '--claim', 'name=Demo User'], {
        env: { ITP_TOKEN: token },
      });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('the wallet receives an SD-JWT VC (dc+sd-jwt)');
      const uri = /^credentialOfferUri +(\S+)$/m.exec(run.stdout)?.[1];
      expect(uri).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
      expect(run.stdout).toMatch(/^txCode +\d{6}$/m);
      // The URI names the offer by reference (fetched once, as a wallet does).
      const offerUrl = new URL(uri!).searchParams.get('credential_offer_uri')!;
      expect(offerUrl.startsWith(`${devStack().url}/v2/did/oid4vci/offer/`)).toBe(true);
      const offer = await fetch(offerUrl);
      expect(offer.status).toBe(200);
      expect(await offer.json()).toMatchObject({
        credential_issuer: `${devStack().url}/v2/did/oid4vci`,
        credential_configuration_ids: ['itp_profile_sd_jwt'],
      });
    });

    it('waits for a QR login (web-site side) until the phone side approves it with a VP', async () => {
      let approve: ((requestId: string) => void) | undefined;
      const requested = new Promise<string>((resolve) => (approve = resolve));
      const waiting = itp(
        [
          'login',
          'app',
          '--client-id',
          'demo-site',
          '--client-secret-stdin',
          '--site',
          'http://localhost:8080/',
        ],
        {
          stdin: 'demo-site-secret',
          onStderr: (stderr) => {
            const requestId = /^requestId: (\S+)$/m.exec(stderr)?.[1];
            if (requestId) approve?.(requestId);
          },
        },
      );
      const requestId = await requested;
      // The phone app: a fresh VP of the demo user's credential, sent with the requestId.
      const vp = await ok(['vp', 'create', '--holder', did, '--vc', vcFile], {
        env: { ITP_TOKEN: token },
      });
      const approval = await fetch(`${devStack().url}/v2/auth/auth-user-with-vp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ vp: JSON.parse(vp), requestId }),
      });
      expect(approval.status).toBe(200);
      const login = await waiting;
      expect(login.code).toBe(0);
      expect(login.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
      expect(login.stderr).toContain('logged in as Demo User (demo)');
    });

    it('exits 2 on bad usage and 3 when the gateway cannot be reached', async () => {
      const usage = await itp(['wallet', 'transfer', '--from', wallet.address]);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--to is required');

      const nobody = `http://127.0.0.1:${await freePort()}`;
      const down = await itp(['--url', nobody, 'block', 'get']);
      expect(down.code).toBe(3);
      expect(down.stderr).toContain(`The platform at ${nobody} is not available`);
    });

    it("runs `users list` through auth-service's operator CLI on the stack's database", async () => {
      const env = { APP_ENV: 'development', DATA_DIR: devStack().dataDir };
      const users = JSON.parse(await ok(['users', 'list', '--json'], { env }));
      expect(users).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: 'demo', name: 'Demo User' })]),
      );
      const unknown = await itp(['users', 'enable', 'nobody-here'], { env });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/^error: /);
    });

    it('itp account lists the ways in; logout --everywhere ends the token and itp login works again', async () => {
      const asDemo = { env: { ITP_TOKEN: token } };
      const key = generatePrivateKey();
      const address = privateKeyToAccount(key).address.toLowerCase();
      const keyFile = join(files, 'account.key');
      writeFileSync(keyFile, key, { mode: 0o600 });
      await ok(['address', 'link', '--key-file', keyFile], asDemo);

      interface Listed {
        userId: string;
        linkedAddresses: Array<{ address: string }>;
        credentials: Array<{ holder: string; status: string; via: string }>;
      }
      const listed = async (): Promise<Listed> =>
        JSON.parse(await ok(['account', '--json'], asDemo));
      const issued = (account: Listed) => account.credentials.find((c) => c.holder === did);
      const account = await listed();
      expect(account).toMatchObject({ userId: 'demo', name: 'Demo User' });
      expect(account.linkedAddresses.map((a) => a.address)).toContain(address);
      expect(issued(account)).toMatchObject({ status: 'valid', via: 'create-vc' });
      const text = await ok(['account'], asDemo);
      expect(text).toMatch(/^userId {2}demo\nname {4}Demo User\n/);
      expect(text).toContain(`\nlinked addresses\n`);
      expect(text).toContain(address);

      await ok(['vc', 'revoke', vcFile], asDemo);
      expect(issued(await listed())).toMatchObject({ status: 'revoked' });

      const noSite = await itp(['account', 'revoke-site', 'demo-site'], asDemo);
      expect(noSite.code).toBe(1);
      expect(noSite.stderr).toMatch(/^error \[404\] \(\/v2\/auth\/revoke-site\): /);

      const logout = await itp(['logout', '--everywhere'], asDemo);
      expect([logout.code, logout.stdout]).toEqual([
        0,
        "logged out everywhere: every token of demo ended (this one too), and every site's grant\n",
      ]);
      const ended = await itp(['account'], asDemo);
      expect([ended.code, ended.stdout]).toEqual([1, '']);
      expect(ended.stderr).toMatch(/^error \[401\] \(\/v2\/[a-z/]+\): This token was ended/);

      const again = await ok(['login', '--id', 'demo', '--password-stdin'], {
        stdin: 'demo-password\n',
      });
      const fresh = { env: { ITP_TOKEN: again.trim() } };
      expect(JSON.parse(await ok(['account', '--json'], fresh))).toMatchObject({ userId: 'demo' });
      // Tidy: the address links to nobody after this run.
      await ok(['address', 'unlink', address], fresh);
    });
  });
};
