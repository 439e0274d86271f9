/**
 * The command line end to end in-process with a fake SDK client and fake operator CLIs: parsing,
 * output modes, and the exit code of every kind of outcome. The real CLI against a real stack:
 * e2e/src/dev-suites/cli.suite.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { verifyMessage } from 'viem';
import {
  english,
  generateMnemonic,
  generatePrivateKey,
  mnemonicToAccount,
  privateKeyToAccount,
} from 'viem/accounts';
import {
  AddressTakenError,
  ForbiddenError,
  InvalidCredentialsError,
  NetworkError,
  NotFoundError,
  ServiceUnavailableError,
  SiweRefusedError,
  waitForTransaction,
  type GetTransactionStatusResult,
  type ItpClient,
  type TransactionReaders,
  type TransactionReceipt,
  type WaitForTransactionOptions,
} from '@itp/client';
import type { CliSettings } from './config.js';
import { ConfigError } from './errors.js';
import type { AdminCli } from './delegate/find-admin-cli.js';
import { runCli, sdkClient, type CliDeps } from './run-cli.js';

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TX = `0x${'ab'.repeat(32)}`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  settings: CliSettings | undefined;
}

interface Options {
  stdin?: string;
  env?: Record<string, string>;
  client?: Record<string, unknown>;
  deps?: Partial<CliDeps>;
}

async function run(argv: string[], options: Options = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  let settings: CliSettings | undefined;
  const deps: CliDeps = {
    createClient: (s) => {
      settings = s;
      return (options.client ?? {}) as unknown as ItpClient;
    },
    findAdminCli: () => {
      throw new Error('no operator CLI in this test');
    },
    runAdminCli: async () => 0,
    ...options.deps,
  };
  const code = await runCli(
    argv,
    {
      env: options.env ?? {},
      stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
      stdout: { write: (chunk: string) => ((stdout += chunk), true) },
      stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    },
    deps,
  );
  return { code, stdout, stderr, settings };
}

const loginResult = {
  token: 'jwt.jwt.jwt',
  userId: 'demo',
  name: 'Demo User',
  telNo: null,
  email: 'demo@example.com',
};

function status(over: Partial<GetTransactionStatusResult>): GetTransactionStatusResult {
  return {
    transactionId: TX,
    kind: 'transfer',
    status: 'mined',
    final: true,
    from: ADDRESS,
    to: ADDRESS,
    contractAddress: null,
    amount: '1000000000000000000',
    nonce: 0,
    blockNumber: 7,
    error: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
    ...over,
  };
}

describe('runCli: usage', () => {
  it('prints the usage with its exit codes for --help (0), and on stderr without a command (2)', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^itp: /);
    expect(help.stdout).toContain('3  service unavailable');
    expect((await run(['help'])).code).toBe(0);
    const none = await run([]);
    expect([none.code, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toContain('Usage: itp');
  });

  it('prints the usage for a command --help without running it', async () => {
    const result = await run(['wallet', 'create', '--help']);
    expect([result.code, result.settings]).toEqual([0, undefined]);
    expect(result.stdout).toContain('wallet create');
  });

  it('exits 2 with a pointer to --help for unknown commands and options and missing arguments', async () => {
    const cases: Array<[string[], string]> = [
      [['frobnicate'], 'unknown command: frobnicate'],
      [['wallet'], '"wallet" needs a command: create, key, balance, transfer'],
      [
        ['wallet', 'burn'],
        'unknown command: wallet burn (wallet has: create, key, balance, transfer)',
      ],
      [['wallet', 'create', '--bogus'], "Unknown option '--bogus'"],
      [['wallet', 'balance'], 'expected <address>, got none'],
      [['login', '--password', 'x'], '--id is required'],
      [
        ['wallet', 'transfer', '--from', ADDRESS, '--to', ADDRESS, '--amount', 'lots'],
        '--amount must be wei',
      ],
      [['block', 'get', 'head'], 'a block is a number'],
      [['--url', 'ftp://x', 'block', 'get'], '--url must be an http(s) URL'],
    ];
    for (const [argv, message] of cases) {
      const result = await run(argv);
      expect([argv, result.code]).toEqual([argv, 2]);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe('');
    }
  });
});

describe('runCli: output and global options', () => {
  const client = {
    token: {
      getBalance: async ({ address }: { address: string }) => ({
        address,
        balance: '10000000000000000000',
      }),
    },
  };

  it('prints a readable listing by default', async () => {
    const result = await run(['wallet', 'balance', ADDRESS], { client });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`address  ${ADDRESS}\nbalance  10000000000000000000 wei (10 ETH)\n`);
  });

  it('prints the API answer as JSON with --json, given before or after the command', async () => {
    for (const argv of [
      ['--json', 'wallet', 'balance', ADDRESS],
      ['wallet', 'balance', ADDRESS, '--json'],
    ]) {
      const result = await run(argv, { client });
      expect(JSON.parse(result.stdout)).toEqual({
        address: ADDRESS,
        balance: '10000000000000000000',
      });
    }
  });

  it('takes the gateway and token from --url / --token over ITP_URL / ITP_TOKEN', async () => {
    const env = { ITP_URL: 'http://env.example:1', ITP_TOKEN: 'env-token' };
    expect((await run(['wallet', 'balance', ADDRESS], { client, env })).settings).toMatchObject({
      url: 'http://env.example:1',
      token: 'env-token',
    });
    const flags = await run(
      ['--url', 'http://flag.example:2', 'wallet', 'balance', ADDRESS, '--token=flag-token'],
      { client, env },
    );
    expect(flags.settings).toMatchObject({ url: 'http://flag.example:2', token: 'flag-token' });
  });
});

describe('runCli: login', () => {
  it('reads the password from stdin and prints only the token on stdout', async () => {
    const calls: unknown[] = [];
    const client = {
      auth: { login: async (params: unknown) => (calls.push(params), loginResult) },
    };
    const result = await run(['login', '--id', 'demo', '--password-stdin'], {
      client,
      stdin: 'demo-password\n',
    });
    expect(result).toMatchObject({ code: 0, stdout: 'jwt.jwt.jwt\n' });
    expect(result.stderr).toBe('logged in as Demo User (demo)\n');
    expect(calls).toEqual([{ id: 'demo', password: 'demo-password' }]);
    const json = await run(['login', '--id', 'demo', '--password', 'p', '--json'], { client });
    expect(JSON.parse(json.stdout)).toEqual(loginResult);
  });

  it('exits 1 with the code of a refused login, 3 when the platform is not there', async () => {
    const refused = await run(['login', '--id', 'demo', '--password', 'nope'], {
      client: {
        auth: {
          login: async () => {
            throw new InvalidCredentialsError('wrong id or password', {
              source: 'rest',
              status: 401,
              code: '401',
            });
          },
        },
      },
    });
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      1,
      '',
      'error [401]: wrong id or password\n',
    ]);
    const down = await run(['login', '--id', 'demo', '--password', 'p'], {
      client: {
        auth: {
          login: async () => {
            throw new NetworkError('connect ECONNREFUSED', { source: 'client' });
          },
        },
      },
    });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('The platform at http://localhost:8080 is not available');
  });

  it('runs the web-site side of QR login: requestId on stderr, then the token', async () => {
    const seen: unknown[] = [];
    const client = {
      auth: {
        relyingParty: (credentials: unknown) => ({
          startLogin: async (params: unknown) => {
            seen.push(credentials, params);
            return { requestId: 'http://localhost:8080/requestId=123', waitTime: 60 };
          },
          waitForLogin: async (requestId: string) => (seen.push(requestId), loginResult),
        }),
      },
    };
    const result = await run(
      [
        'login',
        'app',
        '--client-id',
        'demo-site',
        '--client-secret-stdin',
        '--site',
        'http://localhost:8080/',
      ],
      { client, stdin: 'demo-site-secret' },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('jwt.jwt.jwt\n');
    expect(result.stderr).toContain('requestId: http://localhost:8080/requestId=123\n');
    expect(seen).toEqual([
      { clientId: 'demo-site', clientSecret: 'demo-site-secret' },
      { requestId: 'http://localhost:8080/' },
      'http://localhost:8080/requestId=123',
    ]);
  });
});

describe('runCli: Sign-In with Ethereum', () => {
  const dir = mkdtempSync(join(tmpdir(), 'itp-cli-siwe-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const privateKey = generatePrivateKey();
  const account = privateKeyToAccount(privateKey);
  /** The key written as `login approve --key-file` reads it: `0x` or not, a trailing newline. */
  const keyFile = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  /** The SDK's auth as the CLI sees it: records the signer's address and its signature. */
  function fakeAuth(seen: unknown[]) {
    const signed = async (signer: unknown) => {
      const { address, signMessage } = signer as typeof account;
      const signature = await signMessage({ message: 'm' });
      return { address, verified: await verifyMessage({ address, message: 'm', signature }) };
    };
    return {
      loginWithSiwe: async (signer: unknown) => (seen.push(await signed(signer)), loginResult),
      linkAddress: async (signer: unknown) => {
        seen.push(await signed(signer));
        return { address: account.address, userId: 'demo' };
      },
      unlinkAddress: async (address: string) => (seen.push(address), { address, userId: 'demo' }),
    };
  }

  it('login siwe signs with the key of --key-file (0x optional) and prints the token', async () => {
    const seen: unknown[] = [];
    const client = { auth: fakeAuth(seen) };
    const result = await run(['login', 'siwe', '--key-file', keyFile('a.key', `${privateKey}\n`)], {
      client,
    });
    expect([result.code, result.stdout, result.stderr]).toEqual([
      0,
      'jwt.jwt.jwt\n',
      `logged in as Demo User (demo) with ${account.address}\n`,
    ]);
    const bare = keyFile('b.key', `  ${privateKey.slice(2)}  \n`);
    const json = await run(['login', 'siwe', '--key-file', bare, '--json'], { client });
    expect(JSON.parse(json.stdout)).toEqual(loginResult);
    const fromStdin = await run(['login', 'siwe', '--key-file', '-'], {
      client,
      stdin: privateKey,
    });
    expect(fromStdin.code).toBe(0);
    expect(seen).toEqual([0, 1, 2].map(() => ({ address: account.address, verified: true })));
  });

  it('login siwe: 2 for a missing or bad key file, 1 with the code when refused', async () => {
    const client = { auth: fakeAuth([]) };
    const missing = await run(['login', 'siwe'], { client });
    expect([missing.code, missing.stderr]).toEqual([
      2,
      'error: --key-file is required\nRun "itp --help" for usage.\n',
    ]);
    const noFile = await run(['login', 'siwe', '--key-file', join(dir, 'none.key')], { client });
    expect([noFile.code, noFile.stderr]).toEqual([2, expect.stringContaining('no such file')]);
    for (const text of ['0x1234', `0x${'0'.repeat(64)}`, 'not a key']) {
      const bad = await run(['login', 'siwe', '--key-file', keyFile('bad.key', text)], { client });
      expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('secp256k1 private key')]);
    }
    const refused = await run(['login', 'siwe', '--key-file', keyFile('c.key', privateKey)], {
      client: {
        auth: {
          loginWithSiwe: async () => {
            throw new SiweRefusedError('the address is linked to no user', {
              source: 'rest',
              status: 401,
              code: '401',
              operation: '/v2/auth/auth-user-with-siwe',
            });
          },
        },
      },
    });
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      1,
      '',
      'error [401] (/v2/auth/auth-user-with-siwe): the address is linked to no user\n',
    ]);
  });

  it('address link and unlink need a token (2), and print the answer as JSON', async () => {
    const file = keyFile('d.key', privateKey);
    for (const argv of [
      ['address', 'link', '--key-file', file],
      ['address', 'unlink', account.address],
    ]) {
      const noToken = await run(argv, { client: { auth: fakeAuth([]) } });
      expect([noToken.code, noToken.stderr]).toEqual([
        2,
        expect.stringContaining(`${argv.slice(0, 2).join(' ')} acts for a user`),
      ]);
    }
    const seen: unknown[] = [];
    const env = { ITP_TOKEN: 'jwt' };
    const linked = await run(['address', 'link', '--key-file', file], {
      env,
      client: { auth: fakeAuth(seen) },
    });
    expect(linked.code).toBe(0);
    expect(JSON.parse(linked.stdout)).toEqual({ address: account.address, userId: 'demo' });
    expect(linked.settings?.token).toBe('jwt');
    const unlinked = await run(['address', 'unlink', account.address, '--json'], {
      env,
      client: { auth: fakeAuth(seen) },
    });
    expect(JSON.parse(unlinked.stdout)).toEqual({ address: account.address, userId: 'demo' });
    expect(seen).toEqual([{ address: account.address, verified: true }, account.address]);
    const notAddress = await run(['address', 'unlink', '0x12'], { env });
    expect([notAddress.code, notAddress.stderr]).toEqual([
      2,
      expect.stringContaining('<address> must be a 0x address'),
    ]);
    const group = await run(['address'], { env });
    expect(group.stderr).toContain('"address" needs a command: link, unlink');
  });

  it('address link exits 1 with error [409] when the address is linked to another user', async () => {
    const taken = await run(['address', 'link', '--key-file', keyFile('e.key', privateKey)], {
      env: { ITP_TOKEN: 'jwt' },
      client: {
        auth: {
          linkAddress: async () => {
            throw new AddressTakenError('the address is linked to another user', {
              source: 'rest',
              status: 409,
              code: '409',
            });
          },
        },
      },
    });
    expect([taken.code, taken.stdout, taken.stderr]).toEqual([
      1,
      '',
      'error [409]: the address is linked to another user\n',
    ]);
  });
});

describe('runCli: wallet transfer', () => {
  /** A client that sends, then answers status reads with `statuses` and receipt reads with `receipt`. */
  function transferClient(statuses: () => Promise<GetTransactionStatusResult>, receipt?: object) {
    const calls: unknown[] = [];
    const readers: TransactionReaders = {
      status: statuses,
      receipt: async () => {
        if (receipt) return receipt as TransactionReceipt;
        throw new NotFoundError('not yet', { source: 'service' });
      },
    };
    return {
      calls,
      client: {
        token: {
          wallet: (credentials: unknown) => ({
            transfer: async (params: unknown) => {
              calls.push(credentials, params);
              return { transactionId: TX, resultData: '' };
            },
          }),
          // The SDK's own wait over these readers: the CLI's --wait is that function.
          waitForTransaction: (id: string, options: WaitForTransactionOptions) =>
            waitForTransaction(readers, id, options),
        },
      },
    };
  }
  const argv = [
    'wallet',
    'transfer',
    '--from',
    ADDRESS,
    '--to',
    ADDRESS,
    '--amount',
    '1eth',
    '--secret-key-stdin',
  ];

  it('sends with the secret key from stdin and prints the TransactionID', async () => {
    const { calls, client } = transferClient(async () => {
      throw new Error('not waited for');
    });
    const result = await run(argv, { client, stdin: 'f'.repeat(64) });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`transactionId  ${TX}\n`);
    expect(result.stderr).toBe(`sent; follow it with: itp tx status ${TX}\n`);
    expect(calls).toEqual([
      { address: ADDRESS, secretKey: 'f'.repeat(64) },
      { to: ADDRESS, amount: '1000000000000000000' },
    ]);
  });

  it('with --wait prints the final status: 0 when mined, 1 when failed', async () => {
    const mined = await run([...argv, '--wait'], {
      client: transferClient(
        async () => status({ status: 'sent', final: false, blockNumber: null }),
        {
          status: 'success',
          blockNumber: 9,
        },
      ).client,
      stdin: 'k',
    });
    expect(mined.code).toBe(0);
    expect(mined.stdout).toContain('status           mined\n');
    expect(mined.stdout).toContain('blockNumber      9\n');
    const failed = await run([...argv, '--wait', '--json'], {
      client: transferClient(async () => status({ status: 'failed', error: 'execution reverted' }))
        .client,
      stdin: 'k',
    });
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'failed' });
    expect(failed.stderr).toBe(`error [failed]: transaction ${TX} failed: execution reverted\n`);
  });

  it('with --wait --timeout gives up after the timeout with exit 1 and how to look again', async () => {
    const { client } = transferClient(async () =>
      status({ status: 'sent', final: false, blockNumber: null }),
    );
    const result = await run([...argv, '--wait', '--timeout', '1'], { client, stdin: 'k' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error [NOT_FINAL]: ${TX} is not final after 1 s; look again with: itp tx status ${TX}\n`,
    );
  });

  it('exits 3 when the status cannot be read because a service is down', async () => {
    const { client } = transferClient(async () => {
      throw new ServiceUnavailableError('the database is not available', { source: 'service' });
    });
    expect((await run([...argv, '--wait'], { client, stdin: 'k' })).code).toBe(3);
  });
});

describe('runCli: credentials', () => {
  const issuers = [{ alias: 'issuer', did: 'did:ethr:0x1' }];

  it('vc issue needs a token (2) and defaults the issuer to the first one listed', async () => {
    const noToken = await run(['vc', 'issue', '--holder', 'did:ethr:0x2']);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('give a login token with --token or ITP_TOKEN');
    const calls: unknown[] = [];
    const vc = { proof: { jwt: 'x' } };
    const result = await run(
      ['vc', 'issue', '--holder', 'did:ethr:0x2', '--claim', 'name=Demo User', '--claim', 'a=b=c'],
      {
        env: { ITP_TOKEN: 'jwt' },
        client: {
          did: {
            issuers: async () => issuers,
            createVc: async (p: unknown) => (calls.push(p), vc),
          },
        },
      },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(vc);
    expect(calls).toEqual([
      { holder: 'did:ethr:0x2', issuer: 'did:ethr:0x1', userInfo: { name: 'Demo User', a: 'b=c' } },
    ]);
  });

  it('vc verify prints the result and exits 1 when the VC does not verify', async () => {
    const client = {
      did: {
        verifyVc: async () => ({
          verified: false,
          error: { code: 'invalid_signature', message: 'signature invalid' },
        }),
      },
    };
    const result = await run(['vc', 'verify', '-'], { client, stdin: '{"proof":{}}' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('verified  false\n');
    expect(result.stderr).toBe(
      'error [invalid_signature]: the VC does not verify: signature invalid\n',
    );
  });

  it('vc offer asks for an OpenID4VCI offer (with a tx code unless --no-tx-code) with the claims and prints the URI and tx code', async () => {
    const calls: unknown[] = [];
    const offer = {
      credentialOfferUri:
        'openid-credential-offer://?credential_offer_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fv2%2Fdid%2Foid4vci%2Foffer%2Fx',
      txCode: '123456',
      expiresInSeconds: 300,
    };
    const client = {
      did: { credentialOffer: async (p: unknown) => (calls.push(p), offer) },
    };
    const env = { ITP_TOKEN: 'jwt' };
    const text = await run(['vc', 'offer', '--claim', 'name=Demo User'], {
      env,
      client,
    });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`credentialOfferUri  ${offer.credentialOfferUri}\n`);
    expect(text.stdout).toContain('txCode              123456\n');
    expect(text.stdout).toMatch(/[█▀▄]{7}/); // the QR code, in text blocks
    expect(text.stderr).toContain('the wallet asks for the tx code');
    const json = await run(['vc', 'offer', '--no-tx-code', '--json'], { env, client });
    expect(JSON.parse(json.stdout)).toEqual(offer);
    await run(['vc', 'offer', '--tx-code'], { env, client }); // the default, said explicitly
    expect(calls).toEqual([
      { txCode: true, userInfo: { name: 'Demo User' } },
      { txCode: false, userInfo: {} },
      { txCode: true, userInfo: {} },
    ]);
    const both = await run(['vc', 'offer', '--tx-code', '--no-tx-code'], { env, client });
    expect(both.code).toBe(2);
    expect(calls).toHaveLength(3);
    const noToken = await run(['vc', 'offer'], { client });
    expect(noToken.code).toBe(2);
  });

  it('vc offer --format dc+sd-jwt asks for an SD-JWT VC offer; without --format none is sent; another format is a usage error', async () => {
    const calls: unknown[] = [];
    const offer = {
      credentialOfferUri:
        'openid-credential-offer://?credential_offer_uri=http%3A%2F%2Flocalhost%3A8080%2Fv2%2Fdid%2Foid4vci%2Foffer%2Fy',
      txCode: '654321',
      expiresInSeconds: 300,
    };
    const client = {
      did: { credentialOffer: async (p: unknown) => (calls.push(p), offer) },
    };
    const env = { ITP_TOKEN: 'jwt' };
    const sdJwt = await run(['vc', 'offer', '--format', 'dc+sd-jwt', '--claim', 'name=Demo User'], {
      env,
      client,
    });
    expect(sdJwt.code).toBe(0);
    expect(sdJwt.stdout).toContain(`credentialOfferUri  ${offer.credentialOfferUri}\n`);
    expect(sdJwt.stderr).toContain('the wallet receives an SD-JWT VC (dc+sd-jwt)');
    await run(['vc', 'offer', '--format', 'jwt_vc_json', '--no-tx-code'], { env, client });
    await run(['vc', 'offer'], { env, client });
    expect(calls).toEqual([
      { txCode: true, userInfo: { name: 'Demo User' }, format: 'dc+sd-jwt' },
      { txCode: false, userInfo: {}, format: 'jwt_vc_json' },
      { txCode: true, userInfo: {} },
    ]);
    const wrong = await run(['vc', 'offer', '--format', 'mso_mdoc'], { env, client });
    expect([wrong.code, wrong.stdout]).toEqual([2, '']);
    expect(wrong.stderr).toContain(
      '--format must be one of jwt_vc_json, dc+sd-jwt, got "mso_mdoc"',
    );
    expect(calls).toHaveLength(3);
  });

  describe('vc revoke', () => {
    const LIST = 'http://127.0.0.1:8080/v2/did/status-lists/AAAAAAAAAAAAAAAAAAAAAA';
    const JWT = 'eyJhbGciOiJFUzI1NksifQ.eyJ2YyI6e319.c2ln';
    const vc = { credentialStatus: { statusListIndex: '7' }, proof: { jwt: JWT } };
    function revokeClient(answer?: () => never) {
      const calls: unknown[] = [];
      const client = {
        did: {
          revokeVc: async (credential: unknown) => {
            calls.push(credential);
            if (answer) answer();
            return { revoked: true, statusListCredential: LIST, statusListIndex: '7' };
          },
        },
      };
      return { calls, client };
    }
    const env = { ITP_TOKEN: 'jwt' };

    it('revokes the VC JSON or the compact JWT read from stdin and prints where its bit is', async () => {
      const { calls, client } = revokeClient();
      const text = await run(['vc', 'revoke', '-'], { env, client, stdin: JSON.stringify(vc) });
      expect(text.code).toBe(0);
      expect(text.stdout).toBe(
        `revoked               true\nstatusListCredential  ${LIST}\nstatusListIndex       7\n`,
      );
      expect(text.stderr).toContain('revoked for good');
      const json = await run(['vc', 'revoke', '-', '--json'], { env, client, stdin: `${JWT}\n` });
      expect(JSON.parse(json.stdout)).toEqual({
        revoked: true,
        statusListCredential: LIST,
        statusListIndex: '7',
      });
      expect(calls).toEqual([vc, JWT]);
    });

    const SD_JWT = `${JWT}~WyJzYWx0IiwibmFtZSIsIkRlbW8gVXNlciJd~WyJzYWx0MiIsImVtYWlsIiwiZEBleC5jb20iXQ~`;

    it('revokes an SD-JWT VC given with --sd-jwt (the string, @file or -) or as a file’s content, as { sdJwt }', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'itp-sd-jwt-'));
      try {
        writeFileSync(join(dir, 'credential.sd-jwt'), `${SD_JWT}\n`);
        const { calls, client } = revokeClient();
        const given = await run(['vc', 'revoke', '--sd-jwt', SD_JWT], { env, client });
        expect(given.code).toBe(0);
        expect(given.stdout).toBe(
          `revoked               true\nstatusListCredential  ${LIST}\nstatusListIndex       7\n`,
        );
        const fromFile = await run(['vc', 'revoke', '--sd-jwt', '@credential.sd-jwt', '--json'], {
          env: { ...env, INIT_CWD: dir },
          client,
        });
        expect(fromFile.code).toBe(0);
        const fromStdin = await run(['vc', 'revoke', '--sd-jwt', '-'], {
          env,
          client,
          stdin: `${SD_JWT}\n`,
        });
        expect(fromStdin.code).toBe(0);
        const positional = await run(['vc', 'revoke', '-'], { env, client, stdin: SD_JWT });
        expect(positional.code).toBe(0);
        expect(calls).toEqual([
          { sdJwt: SD_JWT },
          { sdJwt: SD_JWT },
          { sdJwt: SD_JWT },
          { sdJwt: SD_JWT },
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses an --sd-jwt that is none, and --sd-jwt beside a file (2)', async () => {
      const { calls, client } = revokeClient();
      const usage: Array<[string[], Options, string]> = [
        [['vc', 'revoke', '--sd-jwt', JWT], { env, client }, '--sd-jwt holds no SD-JWT'],
        [['vc', 'revoke', '--sd-jwt', '-'], { env, client, stdin: '{}' }, 'stdin holds no SD-JWT'],
        [['vc', 'revoke', '--sd-jwt', '@missing.txt'], { env, client }, 'no such file'],
        [['vc', 'revoke', '--sd-jwt', SD_JWT, 'vc.json'], { env, client }, 'expected no arguments'],
        [['vc', 'revoke', '--sd-jwt', SD_JWT], { client }, 'give a login token'],
      ];
      for (const [argv, options, message] of usage) {
        const result = await run(argv, options);
        expect([argv, result.code, result.stdout]).toEqual([argv, 2, '']);
        expect(result.stderr).toContain(message);
      }
      expect(calls).toEqual([]);
    });

    it('needs a token and one input that is a VC or a JWT (2), and exits 1 when refused', async () => {
      const { calls, client } = revokeClient();
      const usage: Array<[string[], Options, string]> = [
        [['vc', 'revoke', '-'], { client, stdin: JSON.stringify(vc) }, 'give a login token'],
        [['vc', 'revoke'], { env, client }, 'expected <VC file, or - for stdin>, got none'],
        [['vc', 'revoke', '-'], { env, client, stdin: 'not a credential' }, 'neither a VC'],
        [['vc', 'revoke', '-'], { env, client, stdin: '[1]' }, 'must hold a JSON object'],
        [['vc', 'revoke', 'no-such-file.json'], { env, client }, 'no such file'],
      ];
      for (const [argv, options, message] of usage) {
        const result = await run(argv, options);
        expect([argv, result.code, result.stdout]).toEqual([argv, 2, '']);
        expect(result.stderr).toContain(message);
      }
      expect(calls).toEqual([]);

      const refused = revokeClient(() => {
        throw new ForbiddenError('the credential was issued to another user', {
          source: 'rest',
          status: 403,
          code: '403',
        });
      });
      const result = await run(['vc', 'revoke', '-'], {
        env,
        client: refused.client,
        stdin: JSON.stringify(vc),
      });
      expect([result.code, result.stdout]).toEqual([1, '']);
      expect(result.stderr).toBe('error [403]: the credential was issued to another user\n');
    });
  });

  it('vp create reads each --vc and refuses two inputs from stdin', async () => {
    const result = await run(
      ['vp', 'create', '--holder', 'did:ethr:0x2', '--vc', '-', '--vc', '-'],
      {
        env: { ITP_TOKEN: 'jwt' },
        stdin: '{}',
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('stdin is already used');
  });
});

describe('runCli: operator groups', () => {
  function operatorDeps(code = 0) {
    const found: unknown[] = [];
    const ran: Array<{ cli: AdminCli; args: string[]; env: unknown }> = [];
    const deps: Partial<CliDeps> = {
      findAdminCli: (service, override) => {
        found.push([service, override]);
        return { file: `/x/${service}.js`, nodeArgs: [`/x/${service}.js`] };
      },
      runAdminCli: async (cli, args, env) => (ran.push({ cli, args, env }), code),
    };
    return { found, ran, deps };
  }

  it('hands users and clients to auth-service, kms, credentials and sd-jwt-issuer to did-service, with the environment and exit code', async () => {
    const { found, ran, deps } = operatorDeps(7);
    const env = { APP_ENV: 'development', DATA_DIR: '/data', ITP_DID_ADMIN_CLI: '/my/cli.js' };
    expect(
      (await run(['users', 'add', 'bob', '--name', 'Bob', '--password-stdin'], { env, deps })).code,
    ).toBe(7);
    await run(['--json', 'clients', 'list'], { env, deps });
    await run(['kms', 'status'], { env, deps });
    await run(['credentials', 'revoke', '-'], { env, deps });
    await run(['sd-jwt-issuer', 'show'], { env, deps });
    await run(['users', '--help'], { env, deps });
    expect(found).toEqual([
      ['auth-service', undefined],
      ['auth-service', undefined],
      ['did-service', '/my/cli.js'],
      ['did-service', '/my/cli.js'],
      ['did-service', '/my/cli.js'],
      ['auth-service', undefined],
    ]);
    expect(ran.map((r) => r.args)).toEqual([
      ['users', 'add', 'bob', '--name', 'Bob', '--password-stdin'],
      ['clients', 'list', '--json'],
      ['kms', 'status'],
      ['credentials', 'revoke', '-'],
      ['sd-jwt-issuer', 'show'],
      ['--help'],
    ]);
    expect(ran[0]?.env).toBe(env);
  });

  it('exits 2 when the operator CLI cannot be found', async () => {
    const result = await run(['users', 'list'], {
      deps: {
        findAdminCli: () => {
          throw new ConfigError('the auth-service operator CLI was not found');
        },
      },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: the auth-service operator CLI was not found\n');
  });
});

/** A JWT-shaped token whose payload names `sub` (itp reads it, the platform verifies it). */
const tokenOf = (sub: string, tag: string) =>
  `eyJhbGciOiJFUzI1NiJ9.${Buffer.from(JSON.stringify({ sub, tag })).toString('base64url')}.sig`;

describe('runCli: the account and logout everywhere', () => {
  const account = {
    userId: 'demo',
    name: 'Demo User',
    email: 'demo@example.com',
    linkedAddresses: [{ address: ADDRESS.toLowerCase(), linkedAt: '2026-01-02T00:00:00.000Z' }],
    passkeys: [{ id: 'AbC-_9', name: 'Laptop', createdAt: '2026-01-06T00:00:00.000Z' }],
    sites: [{ clientId: 'demo-site', name: 'Demo site', grantedAt: '2026-01-03T00:00:00.000Z' }],
  };
  const credentials = [
    {
      id: 'urn:uuid:2',
      holder: 'did:jwk:abc',
      issuedAt: '2026-01-05T00:00:00.000Z',
      expiresAt: '2027-01-05T00:00:00.000Z',
      status: 'valid',
      via: 'openid4vci',
    },
    {
      id: 'urn:uuid:1',
      holder: 'did:ethr:0x1',
      issuedAt: '2026-01-04T00:00:00.000Z',
      status: 'revoked',
      via: 'create-vc',
    },
  ];
  const env = { ITP_TOKEN: tokenOf('demo', 'old') };

  it('account lists the user, linked addresses, passkeys, sites and issued credentials with their status', async () => {
    const client = {
      auth: { account: async () => account },
      did: { credentials: async () => credentials },
    };
    const text = await run(['account'], { env, client });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      [
        'userId  demo',
        'name    Demo User',
        'email   demo@example.com',
        '',
        'linked addresses',
        'address                                     linkedAt',
        `${ADDRESS.toLowerCase()}  2026-01-02T00:00:00.000Z`,
        '',
        'passkeys',
        'name    createdAt                 lastUsedAt  id',
        'Laptop  2026-01-06T00:00:00.000Z  never       AbC-_9',
        '',
        'sites',
        'clientId   name       grantedAt',
        'demo-site  Demo site  2026-01-03T00:00:00.000Z',
        '',
        'credentials',
        'id          holder        issuedAt                  expiresAt                 status   via',
        'urn:uuid:2  did:jwk:abc   2026-01-05T00:00:00.000Z  2027-01-05T00:00:00.000Z  valid    openid4vci',
        'urn:uuid:1  did:ethr:0x1  2026-01-04T00:00:00.000Z  -                         revoked  create-vc',
        '',
      ].join('\n'),
    );
    const json = await run(['account', '--json'], { env, client });
    expect(JSON.parse(json.stdout)).toEqual({ ...account, credentials });

    const empty = {
      auth: {
        account: async () => ({ ...account, linkedAddresses: [], passkeys: [], sites: [] }),
      },
      did: { credentials: async () => [] },
    };
    expect((await run(['account'], { env, client: empty })).stdout).toContain(
      '\nlinked addresses: none\n\npasskeys: none\n\nsites: none\n\ncredentials: none\n',
    );
    const noToken = await run(['account'], { client });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('account acts for a user');
  });

  it('account revoke-site ends a site’s grants; 1 with error [404] when it holds none', async () => {
    const revoked: string[] = [];
    const client = {
      auth: {
        revokeSite: async (clientId: string) => {
          if (clientId === 'nope') {
            throw new NotFoundError('No site "nope" holds a grant of yours', {
              source: 'rest',
              status: 404,
              operation: '/v2/auth/revoke-site',
            });
          }
          revoked.push(clientId);
        },
      },
    };
    const done = await run(['account', 'revoke-site', 'demo-site'], { env, client });
    expect([done.code, done.stdout]).toEqual([
      0,
      'site demo-site: its grants ended; it asks you to log in again\n',
    ]);
    expect(
      JSON.parse((await run(['account', 'revoke-site', 'x', '--json'], { env, client })).stdout),
    ).toEqual({});
    const missing = await run(['account', 'revoke-site', 'nope'], { env, client });
    expect([missing.code, missing.stderr]).toEqual([
      1,
      'error [404] (/v2/auth/revoke-site): No site "nope" holds a grant of yours\n',
    ]);
    expect((await run(['account', 'revoke-site'], { env, client })).code).toBe(2);
    expect(revoked).toEqual(['demo-site', 'x']);
  });

  it('logout --everywhere ends every token; logout alone has nothing to forget (2)', async () => {
    let calls = 0;
    const client = { auth: { logoutEverywhere: async () => void calls++ } };
    const done = await run(['logout', '--everywhere'], { env, client });
    expect(done.code).toBe(0);
    expect(done.stdout).toBe(
      "logged out everywhere: every token of demo ended (this one too), and every site's grant\n",
    );
    expect(done.stderr).toContain('log in again with `itp login`');
    expect(
      JSON.parse((await run(['logout', '--everywhere', '--json'], { env, client })).stdout),
    ).toEqual({});
    const alone = await run(['logout'], { env, client });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('itp keeps no login of its own to forget');
    expect((await run(['logout', '--everywhere'], { client })).code).toBe(2);
    expect(calls).toBe(2);
  });
});

describe('runCli: step-up (a recent login) against a stand-in gateway', () => {
  const OLD = tokenOf('demo', 'old');
  const FRESH = tokenOf('demo', 'fresh');
  const VC = { type: ['VerifiableCredential'], proof: { type: 'JwtProof2020', jwt: 'a.b.c' } };
  const CHALLENGE =
    'Bearer error="insufficient_user_authentication", ' +
    'error_description="A more recent authentication is required", max_age=300';
  const seen: Array<{ path: string; authorization?: string; body: unknown }> = [];
  /** Whether create-vc refuses even the fresh token (a second challenge). */
  let alwaysChallenge = false;
  let server: Server;
  let url: string;

  const bodyOf = async (req: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      void (async () => {
        const body = await bodyOf(req);
        const path = req.url ?? '';
        const authorization = req.headers.authorization;
        seen.push({ path, ...(authorization ? { authorization } : {}), body });
        const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(json));
        };
        if (path === '/v2/auth/auth-user') {
          const { id, password } = body as { id: string; password: string };
          return id === 'demo' && password === 'demo-password'
            ? answer(200, { ...loginResult, token: FRESH })
            : answer(401, { error: { code: '401', message: 'Invalid id or password' } });
        }
        if (path === '/v2/did/create-vc') {
          return authorization === `Bearer ${FRESH}` && !alwaysChallenge
            ? answer(200, VC)
            : answer(
                401,
                {
                  error: {
                    code: 'insufficient_user_authentication',
                    message: 'This operation needs a login within the last 300 seconds',
                  },
                },
                { 'www-authenticate': CHALLENGE },
              );
        }
        return answer(404, { error: { code: '404', message: 'no such route' } });
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ISSUE = ['vc', 'issue', '--holder', 'did:ethr:0x1', '--issuer', 'did:ethr:0x2'];

  /** itp with the real SDK client against the stand-in; stdin a pipe unless `terminal` is given. */
  async function stepUpRun(
    argv: string[],
    options: { stdin?: string; terminal?: (prompt: string, input: PassThrough) => void } = {},
  ): Promise<Run> {
    seen.length = 0;
    let stdout = '';
    let stderr = '';
    const input = options.terminal
      ? Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined })
      : Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]);
    const code = await runCli(
      argv,
      {
        env: { ITP_URL: url, ITP_TOKEN: OLD },
        stdin: input,
        stdout: { write: (chunk: string) => ((stdout += chunk), true) },
        stderr: {
          isTTY: options.terminal !== undefined,
          write: (chunk: string) => {
            stderr += chunk;
            options.terminal?.(chunk, input as PassThrough);
            return true;
          },
        },
      },
      {
        createClient: sdkClient,
        findAdminCli: () => {
          throw new Error('no operator CLI in this test');
        },
        runAdminCli: async () => 0,
      },
    );
    return { code, stdout, stderr, settings: undefined };
  }

  const trail = () => seen.map((r) => [r.path, r.authorization ?? r.body]);

  it('logs in again with the password from --password-stdin and retries once with the new token', async () => {
    const result = await stepUpRun([...ISSUE, '--password-stdin'], { stdin: 'demo-password\n' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(VC);
    expect(result.stderr).toContain(
      'logged in again as Demo User (demo) for this command: this needs a login within the last 300 seconds\n',
    );
    expect(trail()).toEqual([
      ['/v2/did/create-vc', `Bearer ${OLD}`],
      ['/v2/auth/auth-user', { id: 'demo', password: 'demo-password' }],
      ['/v2/did/create-vc', `Bearer ${FRESH}`],
    ]);
    expect(seen[2]?.body).toEqual(seen[0]?.body);
  });

  it('asks for the password at the terminal, without echo', async () => {
    const result = await stepUpRun(ISSUE, {
      terminal: (chunk, input) => {
        if (chunk.endsWith('password for demo: ')) input.write('demo-password\r');
      },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'this needs a login within the last 300 seconds: password for demo: \n',
    );
    expect(result.stderr).not.toContain('demo-password');
    expect(trail().map(([path]) => path)).toEqual([
      '/v2/did/create-vc',
      '/v2/auth/auth-user',
      '/v2/did/create-vc',
    ]);
  });

  it('without a way to get the password exits 1 and says to log in and retry', async () => {
    const result = await stepUpRun(ISSUE);
    expect([result.code, result.stdout]).toEqual([1, '']);
    expect(result.stderr).toBe(
      'error [insufficient_user_authentication] (/v2/did/create-vc): this needs a login within ' +
        'the last 300 seconds: run `itp login` and retry\n' +
        '(itp logs in again on the way when it can ask for the password: in a terminal, or with ' +
        '--password-stdin)\n',
    );
    expect(trail()).toEqual([['/v2/did/create-vc', `Bearer ${OLD}`]]);
  });

  it('a wrong password is the login’s refusal (1), and nothing is retried', async () => {
    const result = await stepUpRun([...ISSUE, '--password-stdin'], { stdin: 'wrong' });
    expect([result.code, result.stderr]).toEqual([
      1,
      'error [401] (/v2/auth/auth-user): Invalid id or password\n',
    ]);
    expect(trail().map(([path]) => path)).toEqual(['/v2/did/create-vc', '/v2/auth/auth-user']);
  });

  it('a second challenge after logging in again is not retried: exit 1', async () => {
    alwaysChallenge = true;
    try {
      const result = await stepUpRun([...ISSUE, '--password-stdin'], { stdin: 'demo-password' });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error [insufficient_user_authentication]');
      expect(
        trail().map(([path, auth]) => [path, typeof auth === 'string' ? auth : 'login']),
      ).toEqual([
        ['/v2/did/create-vc', `Bearer ${OLD}`],
        ['/v2/auth/auth-user', 'login'],
        ['/v2/did/create-vc', `Bearer ${FRESH}`],
      ]);
    } finally {
      alwaysChallenge = false;
    }
  });
});

describe('runCli: the key a wallet address signs with (not its secretKey)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'itp-cli-wallet-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const path = (name: string) => join(dir, name);
  const env = { ITP_TOKEN: 'jwt' };
  /** A createAddress answer as token-rpc makes it: the address of the mnemonic's m/44'/60'/0'/0/0. */
  const mnemonic = generateMnemonic(english);
  const wallet = {
    address: mnemonicToAccount(mnemonic).address,
    mnemonic,
    secretKey: generatePrivateKey().slice(2),
  };
  /** The address a secretKey is the key of, when read as one: nobody's wallet. */
  const secretKeyAddress = privateKeyToAccount(`0x${wallet.secretKey}`).address;
  const token = (calls: string[]) => ({
    createAddress: async () => (calls.push('createAddress'), wallet),
  });
  /** link-address as the SDK does it: the signer's address and whether its signature verifies. */
  const auth = (seen: unknown[]) => ({
    linkAddress: async (signer: unknown) => {
      const { address, signMessage } = signer as ReturnType<typeof privateKeyToAccount>;
      const signature = await signMessage({ message: 'm' });
      seen.push({ address, verified: await verifyMessage({ address, message: 'm', signature }) });
      return { address, userId: 'demo' };
    },
  });

  it('wallet create --key-file writes the key that signs for the new address (0600, never over a file)', async () => {
    const calls: string[] = [];
    const created = await run(['wallet', 'create', '--key-file', path('w.key')], {
      client: { token: token(calls) },
    });
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(wallet.address);
    expect(created.stderr).toContain(`${path('w.key')} holds the address's private key`);
    const key = readFileSync(path('w.key'), 'utf8').trim();
    expect(privateKeyToAccount(key as `0x${string}`).address).toBe(wallet.address);
    expect(statSync(path('w.key')).mode & 0o777).toBe(0o600);

    // The exported key signs for the wallet's address: address link links that one.
    const seen: unknown[] = [];
    const linked = await run(
      ['address', 'link', '--key-file', path('w.key'), '--address', wallet.address],
      {
        env,
        client: { auth: auth(seen) },
      },
    );
    expect(linked.code).toBe(0);
    expect(seen).toEqual([{ address: wallet.address, verified: true }]);

    // An existing file is refused before a wallet is made.
    const again = await run(['wallet', 'create', '--key-file', path('w.key')], {
      client: { token: token(calls) },
    });
    expect([again.code, again.stderr]).toEqual([2, expect.stringContaining('exists')]);
    expect(calls).toEqual(['createAddress']);
    expect(readFileSync(path('w.key'), 'utf8').trim()).toBe(key);
  });

  it('wallet key derives the key of an existing wallet from its mnemonic on stdin', async () => {
    const derived = await run(
      ['wallet', 'key', '--key-file', path('m.key'), '--address', wallet.address, '--json'],
      {
        stdin: `  ${mnemonic.toUpperCase()}\n`,
      },
    );
    expect(derived.code).toBe(0);
    expect(JSON.parse(derived.stdout)).toEqual({ address: wallet.address, keyFile: path('m.key') });
    const key = readFileSync(path('m.key'), 'utf8').trim() as `0x${string}`;
    expect(privateKeyToAccount(key).address).toBe(wallet.address);

    // The mnemonic of another address: refused naming both, and no key file is left.
    const other = await run(
      ['wallet', 'key', '--key-file', path('x.key'), '--address', secretKeyAddress],
      {
        stdin: mnemonic,
      },
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`is the key of ${wallet.address}, not of ${secretKeyAddress}`);
    expect(existsSync(path('x.key'))).toBe(false);
  });

  it('address link refuses a key of another address than --address, naming both (the secretKey read as a key)', async () => {
    writeFileSync(path('secret.key'), wallet.secretKey);
    const seen: unknown[] = [];
    const refused = await run(
      ['address', 'link', '--key-file', path('secret.key'), '--address', wallet.address],
      { env, client: { auth: auth(seen) } },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `--key-file ${path('secret.key')} is the key of ${secretKeyAddress}, not of --address ${wallet.address}`,
    );
    expect(refused.stderr).toContain("a wallet's secretKey is not its Ethereum key");
    expect(seen).toEqual([]);
    // Without --address the key decides, and the notice says which address was linked.
    const linked = await run(['address', 'link', '--key-file', path('secret.key')], {
      env,
      client: { auth: auth(seen) },
    });
    expect([linked.code, linked.stderr]).toEqual([0, expect.stringContaining(secretKeyAddress)]);
  });
});
