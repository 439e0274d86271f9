import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { SqlClientRepository } from '../db/sql-client-repository.js';
import type { AuthDatabase } from '../db/database.js';
import { Argon2PasswordHasher } from '../passwords/argon2-password-hasher.js';
import { SqlUserRepository } from '../db/sql-user-repository.js';
import { SqlLinkedAddresses } from '../db/sql-linked-addresses.js';
import { runCli } from './run-cli.js';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

describe('auth-service CLI (real PostgreSQL)', () => {
  let db: TestDatabase;
  let database: SqlDatabase<AuthDatabase>;
  const hasher = new Argon2PasswordHasher();

  const cli = async (argv: string[], stdin = ''): Promise<CliRun> => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    stdout.on('data', (c: Buffer) => out.push(c));
    stderr.on('data', (c: Buffer) => err.push(c));
    const code = await runCli(argv, {
      env: { APP_ENV: 'production', DATABASE_URL: db.url },
      stdin: Readable.from([Buffer.from(stdin)]),
      stdout,
      stderr,
    });
    return {
      code,
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8'),
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    database = openSqlDatabase<AuthDatabase>(db.url);
  });

  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  it('users add (password from stdin) / list / disable / enable / reset-password', async () => {
    const add = await cli(
      ['users', 'add', 'erin', '--name', 'Erin', '--email', 'erin@example.com', '--password-stdin'],
      'erin-password-1\n',
    );
    expect(add).toEqual({ code: 0, stdout: 'user erin added\n', stderr: '' });
    const users = new SqlUserRepository(database);
    const stored = await users.findById('erin');
    expect(await hasher.verify(stored!.passwordHash, 'erin-password-1')).toBe(true);

    const list = await cli(['users', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^id\s+name\s+email\s+telNo\s+enabled\s+createdAt\n/);
    expect(list.stdout).toMatch(/erin\s+Erin\s+erin@example.com\s+-\s+true/);
    expect(list.stdout).not.toContain('argon2');
    const json = JSON.parse((await cli(['users', 'list', '--json'])).stdout) as object[];
    expect(json).toEqual([expect.objectContaining({ id: 'erin', enabled: true })]);
    expect(JSON.stringify(json)).not.toContain('argon2');

    expect((await cli(['users', 'disable', 'erin'])).stdout).toBe(
      'user erin disabled: every token and session of the user ended\n',
    );
    expect((await users.findById('erin'))!.enabled).toBe(false);
    expect((await users.findById('erin'))!.tokensValidAfter).toBeGreaterThan(0);
    expect((await cli(['users', 'enable', 'erin'])).stdout).toBe(
      'user erin enabled (tokens from before the disable stay ended: log in again)\n',
    );
    expect((await users.findById('erin'))!.enabled).toBe(true);

    // A reset keeping the keys prints the addresses kept for review.
    await new SqlLinkedAddresses(database).link(
      '0xAbC0000000000000000000000000000000000001',
      'erin',
      1,
    );
    const kept = await cli([
      'users',
      'reset-password',
      'erin',
      '--password',
      'new-password-1',
      '--keep-keys',
    ]);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('kept (--keep-keys)');
    expect(kept.stdout).toContain('  0xabc0000000000000000000000000000000000001\n');
    expect((await users.findById('erin'))!.keysValidAfter).toBe(0);

    const reset = await cli(['users', 'reset-password', 'erin', '--password', 'new-password-2']);
    expect(reset.code).toBe(0);
    expect(reset.stdout).not.toContain('new-password-2');
    expect(reset.stdout).toContain(
      'unlinked addresses: 0xabc0000000000000000000000000000000000001',
    );
    expect(reset.stdout).toContain('credentials issued for the user: revoked');
    expect(
      await hasher.verify((await users.findById('erin'))!.passwordHash, 'new-password-2'),
    ).toBe(true);
    expect((await users.findById('erin'))!.keysValidAfter).toBeGreaterThan(0);

    const shown = await cli(['users', 'show', 'erin', '--json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(
      expect.objectContaining({
        id: 'erin',
        enabled: true,
        linkedAddresses: [],
        lastLogins: {},
        tokensValidAfter: expect.stringMatching(/^\d{4}-/),
      }),
    );
    expect(shown.stdout).not.toContain('argon2');
    const text = await cli(['users', 'show', 'erin']);
    expect(text.stdout).toMatch(/^user\s+erin \(enabled\)\n/);
    expect((await cli(['users', 'show', 'nobody'])).code).toBe(1);
  });

  it('refuses with exit 1: duplicates, unknown ids, weak passwords', async () => {
    await cli(['users', 'add', 'frank', '--name', 'Frank', '--password', 'frank-password']);
    const dup = await cli(['users', 'add', 'frank', '--name', 'F', '--password', 'frank-password']);
    expect(dup).toMatchObject({ code: 1, stderr: 'error: User frank exists already\n' });
    expect((await cli(['users', 'disable', 'nobody'])).code).toBe(1);
    expect((await cli(['clients', 'disable', 'nobody'])).code).toBe(1);
    const weak = await cli(['users', 'add', 'gina', '--name', 'G', '--password', 'short']);
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/password: must have at least 8 characters/);
    expect(weak.stderr).not.toContain('short');
    const badId = await cli(['users', 'add', 'bad id', '--name', 'B', '--password', 'long-enough']);
    expect(badId.code).toBe(1);
  });

  it('refuses a development database that does not exist instead of creating an empty one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'itp-no-db-'));
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const err: Buffer[] = [];
    stderr.on('data', (c: Buffer) => err.push(c));
    const code = await runCli(['users', 'list'], {
      env: { APP_ENV: 'development', DATA_DIR: dataDir },
      stdin: Readable.from([]),
      stdout,
      stderr,
    });
    expect(code).toBe(2);
    expect(Buffer.concat(err).toString()).toMatch(
      /no auth-service database at .*auth-service\.sqlite/,
    );
    expect(existsSync(join(dataDir, 'auth-service.sqlite'))).toBe(false);
  });

  it('refuses with exit 2: usage and configuration errors', async () => {
    expect((await cli([])).code).toBe(2);
    expect((await cli(['nope'])).code).toBe(2);
    expect((await cli(['users', 'add', 'x', '--name', 'X'])).stderr).toMatch(/--password-stdin/);
    expect((await cli(['users', 'list', '--bogus'])).code).toBe(2);
    expect((await cli(['users', 'add', 'x', '--password', 'a', '--password-stdin'])).code).toBe(2);
    expect((await cli(['--help'])).code).toBe(0);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const err: Buffer[] = [];
    stderr.on('data', (c: Buffer) => err.push(c));
    // Anything but development is production: APP_ENV=test needs DATABASE_URL too.
    for (const appEnv of ['production', 'test']) {
      err.length = 0;
      const code = await runCli(['users', 'list'], {
        env: { APP_ENV: appEnv },
        stdin: Readable.from([]),
        stdout,
        stderr,
      });
      expect(code).toBe(2);
      expect(Buffer.concat(err).toString()).toMatch(
        new RegExp(`DATABASE_URL: required when APP_ENV=${appEnv}`),
      );
    }
  });

  it('clients add prints a generated secret once; list never shows it', async () => {
    const add = await cli([
      'clients',
      'add',
      'shop',
      '--prefix',
      'https://shop.example/',
      '--prefix',
      'https://m.shop.example/',
    ]);
    expect(add.code).toBe(0);
    const secret = /shown once, store it now\): (\S+)\n/.exec(add.stdout)?.[1];
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await new SqlClientRepository(database).findById('shop');
    expect(stored?.requestIdPrefixes).toEqual(['https://shop.example/', 'https://m.shop.example/']);
    expect(await hasher.verify(stored!.secretHash, secret!)).toBe(true);

    const list = await cli(['clients', 'list']);
    expect(list.stdout).toMatch(
      /shop\s+shop\s+true\s+https:\/\/shop.example\/ https:\/\/m.shop.example\//,
    );
    expect(list.stdout).not.toContain(secret);
    expect((await cli(['clients', 'list', '--json'])).stdout).not.toContain(secret);

    const chosen = await cli(
      [
        'clients',
        'add',
        'blog',
        '--name',
        'Blog',
        '--prefix',
        'https://blog.example/',
        '--secret-stdin',
      ],
      'blog-secret-chosen',
    );
    expect(chosen).toEqual({ code: 0, stdout: 'client blog added\n', stderr: '' });
    expect((await cli(['clients', 'disable', 'blog'])).stdout).toBe('client blog disabled\n');
    expect((await cli(['clients', 'add', 'x', '--prefix', 'http://no-path'])).code).toBe(1);
  });

  it('clients add / set-redirect-uris keep the OpenID Connect redirect URIs (exact URLs only)', async () => {
    const add = await cli([
      'clients',
      'add',
      'oidc-site',
      '--prefix',
      'https://oidc.example/',
      '--redirect-uri',
      'https://oidc.example/callback',
      '--post-logout-redirect-uri',
      'https://oidc.example/',
      '--backchannel-logout-uri',
      'https://oidc.example/backchannel-logout',
    ]);
    expect(add.code).toBe(0);
    const repo = new SqlClientRepository(database);
    expect(await repo.findById('oidc-site')).toMatchObject({
      redirectUris: ['https://oidc.example/callback'],
      postLogoutRedirectUris: ['https://oidc.example/'],
      backchannelLogoutUri: 'https://oidc.example/backchannel-logout',
    });
    const set = await cli([
      'clients',
      'set-redirect-uris',
      'oidc-site',
      '--redirect-uri',
      'https://oidc.example/cb2',
    ]);
    expect(set).toEqual({
      code: 0,
      stdout: 'redirect URIs of client oidc-site set\n',
      stderr: '',
    });
    expect(await repo.findById('oidc-site')).toMatchObject({
      redirectUris: ['https://oidc.example/cb2'],
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
    });
    const badBackchannel = await cli([
      'clients',
      'set-redirect-uris',
      'oidc-site',
      '--backchannel-logout-uri',
      'ftp://oidc.example/logout',
    ]);
    expect(badBackchannel.code).toBe(1);
    expect(badBackchannel.stderr).toMatch(/backchannelLogoutUri/);
    for (const bad of ['ftp://oidc.example/cb', 'https://oidc.example/cb#frag', 'not a url']) {
      const refused = await cli([
        'clients',
        'set-redirect-uris',
        'oidc-site',
        '--redirect-uri',
        bad,
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/redirectUris/);
    }
    expect(
      (
        await cli([
          'clients',
          'set-redirect-uris',
          'nobody',
          '--redirect-uri',
          'https://x.example/',
        ])
      ).code,
    ).toBe(1);
  });

  it('clients add / set-id-token-signing-alg choose ES256 or RS256 id_tokens, nothing else', async () => {
    const repo = new SqlClientRepository(database);
    const add = await cli([
      'clients',
      'add',
      'rs-site',
      '--prefix',
      'https://rs.example/',
      '--redirect-uri',
      'https://rs.example/cb',
      '--id-token-signing-alg',
      'RS256',
    ]);
    expect(add.code).toBe(0);
    expect(await repo.findById('rs-site')).toMatchObject({ idTokenSigningAlg: 'RS256' });
    const refused = await cli([
      'clients',
      'add',
      'hs-site',
      '--prefix',
      'https://hs.example/',
      '--id-token-signing-alg',
      'HS256',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/idTokenSigningAlg.*ES256, RS256/);
    expect(await repo.findById('hs-site')).toBeUndefined();
    const set = await cli([
      'clients',
      'set-id-token-signing-alg',
      'rs-site',
      '--id-token-signing-alg',
      'ES256',
    ]);
    expect(set).toEqual({
      code: 0,
      stdout: 'id_tokens of client rs-site are signed ES256\n',
      stderr: '',
    });
    expect(await repo.findById('rs-site')).toMatchObject({ idTokenSigningAlg: 'ES256' });
    const none = await cli(['clients', 'set-id-token-signing-alg', 'rs-site']);
    expect(none.code).toBe(2);
    const nobody = await cli([
      'clients',
      'set-id-token-signing-alg',
      'nobody',
      '--id-token-signing-alg',
      'RS256',
    ]);
    expect(nobody.code).toBe(1);
  });

  it('runs as a process: tsx apps/auth-service/src/cli.ts', async () => {
    await cli(['users', 'add', 'proc-user', '--name', 'P', '--password', 'proc-password']);
    const entry = fileURLToPath(new URL('../cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', entry, 'users', 'list', '--json'], {
      env: { PATH: process.env.PATH, APP_ENV: 'production', DATABASE_URL: db.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const users = JSON.parse(Buffer.concat(out).toString('utf8')) as Array<{ id: string }>;
    expect(users.map((u) => u.id)).toContain('proc-user');
  });
});
