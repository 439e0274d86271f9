/**
 * Every operator CLI line the READMEs show runs as written against a dev stack's data: the
 * `npm run cli -w @itp/<service> -- …` and `itp users|clients|kms|credentials …` lines of the
 * shell blocks of README.md, apps/*\/README.md and docs/operations.md (lines with a placeholder,
 * `<…>` or `$VAR`, are templates and skipped). The data folder is what `npm start` leaves (the
 * service's SQLite file, migrated, with the demo user and client); the lines get only PATH, HOME
 * and DATA_DIR (the folder, as for a stack started with DATA_DIR), no APP_ENV and no
 * DATABASE_URL, from the repository root (npm runs `-w` scripts in the app folder).
 */
import { execFile } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase } from '@itp/stores';
import { ClientAdmin } from '../clients/client-admin.js';
import type { AuthDatabase } from '../db/database.js';
import { authMigrations } from '../db/migrations.js';
import { SqlClientRepository } from '../db/sql-client-repository.js';
import { SqlUserRepository } from '../db/sql-user-repository.js';
import { ensureDemoData } from '../dev/demo-data.js';
import { Argon2PasswordHasher } from '../passwords/argon2-password-hasher.js';
import { UserAdmin } from '../users/user-admin.js';
import { runCli } from './run-cli.js';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));

const OPERATOR_LINE =
  /^(npm run cli -w @itp\/(auth|did)-service -- |itp (users|clients|kms|credentials) )/;

/** The operator CLI lines of the shell blocks of one Markdown file, continuations joined. */
function operatorCliLines(markdown: string): string[] {
  const lines: string[] = [];
  for (const block of markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    const joined = (block[1] ?? '').replace(/\\\n\s*/g, '');
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim();
      if (OPERATOR_LINE.test(line) && !/[<$]/.test(line)) lines.push(line);
    }
  }
  return lines;
}

function documents(): string[] {
  const apps = readdirSync(join(repoRoot, 'apps')).map((app) => `apps/${app}/README.md`);
  return ['README.md', 'docs/operations.md', ...apps].filter((doc) => {
    try {
      readFileSync(join(repoRoot, doc));
      return true;
    } catch {
      return false;
    }
  });
}

describe('operator CLI lines of the READMEs, against a dev stack', () => {
  // A checkout after `npm start`: <root>/data, and an app folder.
  const root = mkdtempSync(join(tmpdir(), 'itp-readme-cli-'));
  const dataDir = join(root, 'data');
  const appDir = join(root, 'apps', 'auth-service');
  mkdirSync(dataDir);
  mkdirSync(appDir, { recursive: true });
  const itp = join(repoRoot, 'apps', 'cli', 'bin', 'itp.js');

  beforeAll(async () => {
    // What `npm start` leaves in its data folder: the migrated database with the demo rows.
    const database = openSqlDatabase<AuthDatabase>(`sqlite:${dataDir}/auth-service.sqlite`);
    try {
      await migrateToLatest(database, authMigrations);
      const hasher = new Argon2PasswordHasher();
      await ensureDemoData(
        new UserAdmin({ users: new SqlUserRepository(database), hasher }),
        new ClientAdmin(new SqlClientRepository(database), hasher),
        'http://localhost:8080',
      );
    } finally {
      await database.close();
    }
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const shell = async (line: string) => {
    const env: Record<string, string> = { DATA_DIR: dataDir };
    if (process.env.PATH) env.PATH = process.env.PATH;
    if (process.env.HOME) env.HOME = process.env.HOME;
    // `itp` as the README installs it (npm install -g ./apps/cli links this file).
    const script = `itp() { node '${itp}' "$@"; }\n${line}`;
    try {
      const { stdout, stderr } = await run('bash', ['-c', script], { cwd: repoRoot, env });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: unknown; stdout?: string; stderr?: string };
      return { code: Number(e.code ?? 1), stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  };

  it("finds the dev stack's data from the repository root and from the app folder, no settings", async () => {
    for (const cwd of [root, appDir]) {
      const stdout = new PassThrough();
      const out: Buffer[] = [];
      stdout.on('data', (c: Buffer) => out.push(c));
      const code = await runCli(['users', 'list', '--json'], {
        env: {},
        cwd,
        stdin: Readable.from([]),
        stdout,
        stderr: new PassThrough(),
      });
      expect({ cwd, code }).toEqual({ cwd, code: 0 });
      const users = JSON.parse(Buffer.concat(out).toString('utf8')) as Array<{ id: string }>;
      expect(users.map((u) => u.id)).toContain('demo');
    }
  });

  it('finds the documented lines (the README registers a site this way)', () => {
    const all = documents().flatMap((doc) =>
      operatorCliLines(readFileSync(join(repoRoot, doc), 'utf8')),
    );
    expect(all).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^npm run cli -w @itp\/auth-service -- clients add my-site /),
        'itp users list',
      ]),
    );
  });

  it('runs each of them with exit 0', async () => {
    const lines = [
      ...new Set(
        documents().flatMap((doc) => operatorCliLines(readFileSync(join(repoRoot, doc), 'utf8'))),
      ),
    ];
    for (const line of lines) {
      const result = await shell(line);
      expect({ line, code: result.code, stderr: result.stderr }).toEqual({
        line,
        code: 0,
        stderr: expect.not.stringMatching(/error/i),
      });
    }
    // The README's site is registered, beside the dev stack's demo client.
    const listed = await shell('npm run -s cli -w @itp/auth-service -- clients list --json');
    expect(JSON.parse(listed.stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'demo-site' }),
        expect.objectContaining({
          id: 'my-site',
          redirectUris: ['https://my-site.example/oidc/callback'],
        }),
      ]),
    );
  }, 120_000);
});
