/**
 * A PostgreSQL cluster of the caller's own (initdb + pg_ctl in a dir, on 127.0.0.1), that can be
 * stopped (fast: sessions are cut, as in a crash or failover), started again with its data and
 * paused. Settings for tests: no fsync, no synchronous commit, no full-page writes, 300
 * connections; the socket lives in the data dir.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '@itp/dev-chain';
import { freeze, postgresUser, tcpOpen, waitForPostgresQueries, waitUntil } from './processes.js';
import { guard, type Guard } from './reaper.js';

export interface LocalPostgresOptions {
  /**
   * Where the data dir (`pgdata`) and the server log (`postgres.log`) go. Default: a temp dir,
   * removed on close.
   */
  dir?: string;
  /** Default: a free port (another is tried when it is taken before the server binds it). */
  port?: number;
}

/**
 * PostgreSQL's binary dir: that of initdb on PATH (links followed), else the highest
 * /usr/lib/postgresql/<version>/bin; undefined when neither exists.
 */
export function postgresBinDir(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v initdb'], {
    encoding: 'utf8',
    env: process.env,
  });
  const onPath = found.status === 0 ? (found.stdout?.trim() ?? '') : '';
  if (onPath) {
    const dir = dirname(realpathSync(onPath));
    if (existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const dir = join(root, v, 'bin');
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return undefined;
}

export class LocalPostgres {
  readonly adminUrl: string;
  readonly logFile: string;
  readonly dataDir: string;
  private readonly user = postgresUser();
  private serverGuard: Guard | undefined;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly bin: string,
    /** Set when `dir` is a temp dir of ours. */
    private readonly tempDir: Guard | undefined,
  ) {
    this.adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    this.dataDir = join(dir, 'pgdata');
    this.logFile = join(dir, 'postgres.log');
  }

  static async start(options: LocalPostgresOptions = {}): Promise<LocalPostgres> {
    const bin = postgresBinDir();
    if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
    const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'itp-pg-'));
    const tempDir = options.dir ? undefined : guard({ label: 'postgres dir', dir });
    let db = new LocalPostgres(options.port ?? (await freePort()), dir, bin, tempDir);
    try {
      mkdirSync(db.dataDir, { recursive: true });
      // PostgreSQL refuses to run as root: as root, its files belong to the `postgres` user.
      if (db.user) for (const d of [dir, db.dataDir]) chownSync(d, db.user.uid, db.user.gid);
      await db.run('initdb', [
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
    } catch (err) {
      await db.close();
      throw err;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await db.start();
        return db;
      } catch (err) {
        const portTaken = /could not bind|address already in use/i.test(db.logTail());
        if (options.port !== undefined || attempt === 3 || !portTaken) {
          await db.close();
          throw err;
        }
        db = new LocalPostgres(await freePort(), dir, bin, tempDir);
      }
    }
  }

  private logTail(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8').slice(-2000) : '';
  }

  /** Runs one of PostgreSQL's tools (as the `postgres` user when we are root). */
  private run(tool: string, args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(join(this.bin, tool), args, {
        cwd: existsSync(this.dataDir) ? this.dataDir : this.dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(this.user ?? {}),
      });
      let output = '';
      const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      child.once('error', reject);
      child.once('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`${tool} failed (${code}): ${output.trim()}`)),
      );
    });
  }

  /** The postmaster's pid (first line of postmaster.pid), while the server runs. */
  get pid(): number | undefined {
    const file = join(this.dataDir, 'postmaster.pid');
    if (!existsSync(file)) return undefined;
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  }

  /** Starts the server (with its data); resolves once it answers queries. */
  async start(): Promise<void> {
    if (this.serverGuard) return;
    const settings = [
      `-p ${this.port}`,
      `-k ${this.dataDir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
    try {
      await this.run('pg_ctl', [
        'start',
        '-D',
        this.dataDir,
        '-l',
        this.logFile,
        '-w',
        '-t',
        '60',
        '-o',
        settings,
      ]);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${this.logTail().trim()}`);
    }
    const pid = this.pid;
    this.serverGuard = guard({ label: 'postgres', ...(pid ? { pid } : {}) });
    await waitUntil(() => tcpOpen(this.port), 'postgres start');
    await waitForPostgresQueries(this.adminUrl);
  }

  /** Fast shutdown: open sessions are cut, committed data stays. */
  async stop(): Promise<void> {
    if (!this.serverGuard) return;
    this.resume();
    await this.run('pg_ctl', ['stop', '-D', this.dataDir, '-m', 'fast', '-w', '-t', '60']);
    this.serverGuard.release();
    this.serverGuard = undefined;
    await waitUntil(async () => !(await tcpOpen(this.port)), 'postgres stop');
  }

  /** SIGSTOP to the postmaster: new connections hang. */
  pause(): void {
    freeze(this.pid);
  }

  resume(): void {
    const pid = this.pid;
    if (pid) process.kill(pid, 'SIGCONT');
  }

  /** Creates a database (default: a fresh unique name) and returns its URL. */
  async createDatabase(name = `itp_${randomBytes(6).toString('hex')}`): Promise<string> {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
    const pg = (await import('pg')).default;
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

  /** stop(), and removes the dir when it is a temp dir of ours. */
  async close(): Promise<void> {
    try {
      await this.stop();
    } finally {
      if (this.tempDir) {
        rmSync(this.dir, { recursive: true, force: true });
        this.tempDir.release();
      }
    }
  }
}
