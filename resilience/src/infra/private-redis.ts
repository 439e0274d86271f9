import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@itp/dev-chain';
import { stopChild, tcpOpen, waitUntil } from '@itp/harness';

/**
 * A redis-server of the suite's own, on a free port, that the fault runs stop, start and pause.
 * Append-only persistence in `dir` (flushed on SIGTERM), so a restart keeps what was stored, as a
 * production Redis with persistence does; its log goes to `<dir>/redis.log` (scanned for secrets).
 */
export class PrivateRedis {
  private child: ChildProcess | undefined;
  readonly url: string;
  readonly logFile: string;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {
    this.url = `redis://127.0.0.1:${port}`;
    this.logFile = join(dir, 'redis.log');
  }

  static async start(dir: string): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), dir);
    await redis.start();
    return redis;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const bin = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
    if (bin.status !== 0)
      throw new Error('redis-server is not installed (apt-get install redis-server)');
    this.child = spawn(
      bin.stdout.trim(),
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--logfile',
        this.logFile,
      ],
      { stdio: 'ignore' },
    );
    await waitUntil(() => tcpOpen(this.port), 'redis-server start');
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

  /** SIGTERM: redis writes its append-only file and exits. */
  async stop(): Promise<void> {
    if (this.child) await stopChild(this.child);
    this.child = undefined;
    await waitUntil(async () => !(await tcpOpen(this.port)), 'redis-server stop');
  }

  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }
}
