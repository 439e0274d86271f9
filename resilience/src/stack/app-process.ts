import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep, stopChild } from '@itp/harness';

/** The repository root (this file is resilience/src/stack/app-process.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * One app of the repository as its own process (`node --import tsx apps/<name>/src/main.ts`, the
 * way libs/testing's spawnApp runs them), with every line it writes to stdout and stderr appended
 * to `<logDir>/<name>.log` for the secret scan, and the ability to be stopped and started again
 * on the same port (SIGTERM under load).
 */
export class AppProcess {
  private child: ChildProcess | undefined;
  private log: WriteStream | undefined;
  /** How every run of this app ended ("code 0", "signal SIGKILL"), for the report. */
  readonly exits: string[] = [];
  /** Set while the harness itself stops the app: an exit then is expected. */
  private stopping = false;
  readonly url: string;
  readonly logFile: string;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
    logDir: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.logFile = join(logDir, `${name}.log`);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Exits the harness did not ask for (crashes). */
  get unexpectedExits(): string[] {
    return this.exits.filter((e) => !e.startsWith('asked:'));
  }

  start(): void {
    this.log ??= createWriteStream(this.logFile, { flags: 'a' });
    const base: Record<string, string> = {};
    if (process.env.PATH) base.PATH = process.env.PATH;
    if (process.env.HOME) base.HOME = process.env.HOME;
    const child = spawn(process.execPath, ['--import', 'tsx', `apps/${this.name}/src/main.ts`], {
      cwd: REPO_ROOT,
      env: { ...base, ...this.env, HOST: '127.0.0.1', PORT: String(this.port) },
      // The IPC channel: a service shuts down when it closes (service-kit), so apps never outlive
      // a suite that was killed.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const log = this.log;
    let tail = '';
    const keep = (chunk: Buffer) => {
      log.write(chunk);
      tail = (tail + chunk.toString()).slice(-2000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', (code, signal) => {
      const how = signal ? `signal ${signal}` : `code ${code}`;
      // A crash names what the process said last (its fatal log line), for the CI log.
      this.exits.push(this.stopping ? `asked: ${how}` : `${how}: ${lastWords(tail)}`);
    });
    this.child = child;
  }

  running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Waits until `probe` answers 200 (or the process ends, or the time is up). */
  async waitHealthy(probe = '/health/ready', timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let seen = 'no answer';
    while (Date.now() < deadline) {
      if (!this.running()) throw new Error(`${this.name} ended during start: ${this.exits.at(-1)}`);
      try {
        const res = await fetch(`${this.url}${probe}`, { signal: AbortSignal.timeout(3_000) });
        seen = `HTTP ${res.status} ${(await res.text()).slice(0, 200)}`;
        if (res.status === 200) return;
      } catch {
        seen = 'no answer';
      }
      await sleep(200);
    }
    throw new Error(`${this.name} did not answer ${probe} with 200 in time (last: ${seen})`);
  }

  /** SIGTERM (graceful drain), SIGKILL after `graceMs`; resolves once it ended. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.child || !this.running()) return;
    this.stopping = true;
    await stopChild(this.child, graceMs);
    this.stopping = false;
  }

  async close(): Promise<void> {
    await this.stop();
    await new Promise<void>((resolve) => (this.log ? this.log.end(resolve) : resolve()));
    this.log = undefined;
  }
}

/** The message of the last log line with level ≥ 50 (error, fatal), else the last line. */
function lastWords(output: string): string {
  const lines = output.trim().split('\n');
  for (const line of lines.reverse()) {
    try {
      const parsed = JSON.parse(line) as {
        level?: number;
        msg?: string;
        err?: { message?: string };
      };
      if ((parsed.level ?? 0) >= 50) return `${parsed.msg ?? ''} (${parsed.err?.message ?? ''})`;
    } catch {
      // not a JSON log line
    }
  }
  return (lines[0] ?? '').slice(0, 300);
}
