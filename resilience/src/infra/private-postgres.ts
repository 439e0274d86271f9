import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '@itp/dev-chain';
import { postgresUser, tcpOpen, waitForPostgresQueries, waitUntil } from '@itp/harness';

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const dir = join(root, v, 'bin');
    if (existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl)');
}

/**
 * A PostgreSQL cluster of the suite's own (initdb + pg_ctl in a temp folder, on a free port) that
 * the fault runs stop (`pg_ctl stop -m fast`: sessions are cut, as in a crash or failover) and
 * start again with its data. Its server log is `<dir>/postgres.log` (scanned for secrets).
 */
export class PrivatePostgres {
  readonly adminUrl: string;
  readonly logFile: string;
  private readonly bin = binDir();
  private readonly user = postgresUser();
  private readonly dataDir: string;

  private constructor(
    readonly port: number,
    dir: string,
  ) {
    this.adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    this.dataDir = join(dir, 'pgdata');
    this.logFile = join(dir, 'postgres.log');
  }

  static async start(dir: string): Promise<PrivatePostgres> {
    const db = new PrivatePostgres(await freePort(), dir);
    if (db.user) chownSync(dir, db.user.uid, db.user.gid);
    mkdirSync(db.dataDir, { recursive: true });
    if (db.user) chownSync(db.dataDir, db.user.uid, db.user.gid);
    db.run('initdb', [
      '-D',
      db.dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
    ]);
    await db.start();
    return db;
  }

  private run(tool: string, args: string[]): void {
    const done = spawnSync(join(this.bin, tool), args, {
      encoding: 'utf8',
      cwd: this.dataDir,
      ...(this.user ?? {}),
    });
    if (done.status !== 0) throw new Error(`${tool} failed: ${done.stderr || done.stdout}`);
  }

  /** The postmaster's pid (first line of postmaster.pid), for SIGSTOP / SIGCONT. */
  get pid(): number | undefined {
    const file = join(this.dataDir, 'postmaster.pid');
    if (!existsSync(file)) return undefined;
    return Number(readFileSync(file, 'utf8').split('\n')[0]);
  }

  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      `-k ${this.dataDir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
    this.run('pg_ctl', [
      'start',
      '-D',
      this.dataDir,
      '-l',
      this.logFile,
      '-w',
      '-t',
      '60',
      '-o',
      options,
    ]);
    await waitUntil(() => tcpOpen(this.port), 'postgres start');
    await waitForPostgresQueries(this.adminUrl);
  }

  /** Fast shutdown: open sessions are cut, committed data stays. */
  async stop(): Promise<void> {
    this.run('pg_ctl', ['stop', '-D', this.dataDir, '-m', 'fast', '-w', '-t', '60']);
    await waitUntil(async () => !(await tcpOpen(this.port)), 'postgres stop');
  }

  async createDatabase(name: string): Promise<string> {
    const client = new pg.Client({ connectionString: this.adminUrl });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    const url = new URL(this.adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }
}
