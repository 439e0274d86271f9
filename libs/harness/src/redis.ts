/**
 * A redis-server of the caller's own on 127.0.0.1, that can be stopped, started again on the same
 * port, paused, restarted empty, and restored from a snapshot taken earlier (Redis going back in
 * time: a failover to a replica that lagged, a restore from a backup).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@itp/dev-chain';
import { freeze, stopChild, tcpOpen, waitUntil } from './processes.js';
import { guard, type Guard } from './reaper.js';

export interface LocalRedisOptions {
  /** Where the log (`redis.log`) and the persistence files go. Default: a temp dir, removed on close. */
  dir?: string;
  /**
   * Append-only persistence (fsync on every write, flushed on SIGTERM): a stop and start keeps
   * what was stored, as a production Redis with persistence does. Default: no persistence.
   */
  persist?: boolean;
  /** Default: a free port (another is tried when it is taken before redis-server binds it). */
  port?: number;
}

/** Path of redis-server on PATH (this process's current PATH), or undefined. */
export function redisServerPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], {
    encoding: 'utf8',
    env: process.env,
  });
  const path = found.stdout?.trim() ?? '';
  return found.status === 0 && path ? path : undefined;
}

/** What `snapshot()` took: the RDB file of the whole dataset at one instant. */
export interface RedisSnapshot {
  /** The RDB file (in the LocalRedis's dir: removed with it). */
  file: string;
  /** Epoch ms of the SAVE. */
  takenAt: number;
  /** DBSIZE at the SAVE. */
  keys: number;
}

/**
 * One command in Redis's inline form; resolves with the reply, or undefined when none comes
 * within `timeoutMs`.
 */
function redisCommand(
  port: number,
  command: string,
  timeoutMs = 2000,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (value: string | undefined) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(undefined));
    socket.once('error', () => done(undefined));
    socket.once('close', () => done(undefined));
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      const bulk = /^\$(\d+)\r\n/.exec(reply);
      if (bulk) {
        const body = reply.slice(bulk[0].length);
        if (Buffer.byteLength(body) >= Number(bulk[1])) done(body.slice(0, Number(bulk[1])));
      } else if (reply.endsWith('\r\n')) done(reply.trimEnd());
    });
  });
}

class RedisExitedError extends Error {
  constructor(
    code: number | null,
    readonly log: string,
  ) {
    super(`redis-server exited with code ${code}${log ? `: ${log.trim()}` : ''}`);
  }
}

export class LocalRedis {
  private child: ChildProcess | undefined;
  private childGuard: Guard | undefined;
  private snapshots = 0;
  readonly url: string;
  readonly logFile: string;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly persist: boolean,
    private readonly bin: string,
    /** Set when `dir` is a temp dir of ours. */
    private readonly tempDir: Guard | undefined,
  ) {
    this.url = `redis://127.0.0.1:${port}`;
    this.logFile = join(dir, 'redis.log');
  }

  static async start(options: LocalRedisOptions = {}): Promise<LocalRedis> {
    const bin = redisServerPath();
    if (!bin) throw new Error('redis-server is not installed (apt-get install redis-server)');
    for (let attempt = 1; ; attempt++) {
      const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'itp-redis-'));
      mkdirSync(dir, { recursive: true });
      const tempDir = options.dir ? undefined : guard({ label: 'redis dir', dir });
      const port = options.port ?? (await freePort());
      const redis = new LocalRedis(port, dir, options.persist ?? false, bin, tempDir);
      try {
        await redis.start();
        return redis;
      } catch (err) {
        await redis.close();
        const portTaken =
          err instanceof RedisExitedError && /address already in use/i.test(err.log);
        if (options.port !== undefined || attempt === 3 || !portTaken) throw err;
      }
    }
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts redis-server (on the same port, with what it persisted); resolves once it answers PING. */
  async start(): Promise<void> {
    await this.launch(this.persist);
  }

  /**
   * Starts redis-server with the append-only file on or off. Off, it loads `dump.rdb` of its dir
   * when there is one (with the append-only file on, Redis reads only that file).
   */
  private async launch(appendOnly: boolean): Promise<void> {
    if (this.child) return;
    const persistence = appendOnly
      ? ['--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no'];
    const child = spawn(
      this.bin,
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        ...persistence,
        '--logfile',
        this.logFile,
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    this.childGuard = child.pid ? guard({ label: 'redis-server', pid: child.pid }) : undefined;
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    try {
      // The server on the port must be this one (not another that holds the port) and ready
      // (not still loading its append-only file).
      await waitUntil(
        async () => {
          if (exited()) {
            const log = existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
            throw new RedisExitedError(child.exitCode, log.slice(-2000));
          }
          const info = await redisCommand(this.port, 'INFO server');
          if (!info || !new RegExp(`^process_id:${child.pid}\\r?$`, 'm').test(info)) return false;
          return (await redisCommand(this.port, 'PING')) === '+PONG';
        },
        'redis-server start',
        60_000,
      );
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  /** SIGTERM (redis writes its append-only file and exits); resolves once the port is closed. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const running = child.exitCode === null && child.signalCode === null;
    child.kill('SIGCONT');
    await stopChild(child);
    this.child = undefined;
    this.childGuard?.release();
    this.childGuard = undefined;
    if (running) await waitUntil(async () => !(await tcpOpen(this.port)), 'redis-server stop');
  }

  /** SIGSTOP: connections stay open and nothing is answered. */
  pause(): void {
    freeze(this.child?.pid);
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /**
   * A Redis that restarts EMPTY (its files lost: a new pod without a volume, a failover to an
   * empty replica): stop, delete the persistence files, start on the same port.
   */
  async restartEmpty(): Promise<void> {
    await this.stop();
    rmSync(join(this.dir, 'appendonlydir'), { recursive: true, force: true });
    rmSync(join(this.dir, 'appendonly.aof'), { force: true });
    rmSync(join(this.dir, 'dump.rdb'), { force: true });
    await this.start();
  }

  /**
   * The whole dataset as it is now: SAVE (blocking, so one instant; the server runs with
   * `--save ""`, SAVE still writes `dump.rdb`), then the RDB file is moved aside, so that no later
   * start() loads it by itself.
   */
  async snapshot(): Promise<RedisSnapshot> {
    if (!this.child) throw new Error('redis-server is not running: nothing to snapshot');
    const keys = Number(/^:(\d+)$/.exec((await redisCommand(this.port, 'DBSIZE')) ?? '')?.[1]);
    const takenAt = Date.now();
    const saved = await redisCommand(this.port, 'SAVE', 60_000);
    if (saved !== '+OK') throw new Error(`redis-server SAVE answered ${saved ?? 'nothing'}`);
    const dir = join(this.dir, 'snapshots');
    mkdirSync(dir, { recursive: true });
    this.snapshots += 1;
    const file = join(dir, `snapshot-${this.snapshots}.rdb`);
    renameSync(join(this.dir, 'dump.rdb'), file);
    return { file, takenAt, keys: Number.isFinite(keys) ? keys : 0 };
  }

  /**
   * Redis back at `snapshot` (what was written since is gone; keys whose TTL ran out meanwhile
   * are dropped on load): stop, the append-only files removed and the snapshot put back as
   * `dump.rdb`, start on the same port with the append-only file off (so that the RDB is what
   * loads), resolves once it answers PING with the dataset loaded. With `persist`, the append-only
   * file is then switched on again (CONFIG SET appendonly yes writes it from the loaded data) and
   * this resolves once it is written: a later stop and start keeps the restored data.
   */
  async restore(snapshot: RedisSnapshot): Promise<void> {
    if (!existsSync(snapshot.file)) throw new Error(`no snapshot file ${snapshot.file}`);
    await this.stop();
    rmSync(join(this.dir, 'appendonlydir'), { recursive: true, force: true });
    rmSync(join(this.dir, 'appendonly.aof'), { force: true });
    const rdb = join(this.dir, 'dump.rdb');
    copyFileSync(snapshot.file, rdb);
    try {
      await this.launch(false);
    } finally {
      // Loaded (or failed): a later start() must not load it again by itself.
      rmSync(rdb, { force: true });
    }
    if (!this.persist) return;
    const set = await redisCommand(this.port, 'CONFIG SET appendonly yes');
    if (set !== '+OK') throw new Error(`redis-server CONFIG SET appendonly answered ${set}`);
    await waitUntil(
      async () => {
        const info = (await redisCommand(this.port, 'INFO persistence')) ?? '';
        // The rewrite the switch started has run (its time is -1 until one completed) and
        // none is in progress or waiting.
        return (
          /^aof_enabled:1\r?$/m.test(info) &&
          /^aof_rewrite_in_progress:0\r?$/m.test(info) &&
          /^aof_rewrite_scheduled:0\r?$/m.test(info) &&
          /^aof_last_rewrite_time_sec:\d+\r?$/m.test(info)
        );
      },
      'redis-server append-only file after a restore',
      60_000,
    );
    const info = (await redisCommand(this.port, 'INFO persistence')) ?? '';
    if (!/^aof_last_bgrewrite_status:ok\r?$/m.test(info)) {
      throw new Error('redis-server could not write its append-only file after a restore');
    }
  }

  /** stop(), and removes the dir when it is a temp dir of ours. */
  async close(): Promise<void> {
    await this.stop();
    if (this.tempDir) {
      rmSync(this.dir, { recursive: true, force: true });
      this.tempDir.release();
    }
  }
}
