/**
 * One app of the repository as its own process: the one way the harness runs an app, used by
 * `npm start` (tools/dev/dev-stack.ts), startStack (stack.ts: replicas behind a gateway) and,
 * through spawnApp, the specs that need a real app process (re-exported by @itp/testing).
 *
 * The process runs `apps/<name>/src/main.ts` from source (`node --import tsx`) or its esbuild
 * bundle (bundle-apps.ts), with an environment built from scratch (PATH, HOME and what it is
 * given: nothing of the caller's NODE_OPTIONS or credentials), always with the IPC channel: a
 * service shuts down when that channel closes (service-kit), so app processes never outlive a
 * caller that was killed. It can be stopped and started again on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@itp/dev-chain';
import { bundleEntry } from './bundle-apps.js';
import { sleep, stopChild } from './processes.js';

/** The repository root (this file is libs/harness/src/app-process.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * V8's old-space limit of an app run from its bundle, in MiB. Without one V8 sizes the heap for
 * the machine's memory (GiBs) and lets it grow with the garbage of a busy service (garbage, not a
 * leak: the heap in use after a collection stays small); with this limit resident memory stays
 * flat at the same throughput. In a container Node derives the limit from the cgroup's limit.
 */
export const DEV_MAX_OLD_SPACE_MB = 192;

/** Where an app's stdout and stderr go. */
export type AppOutput =
  /** The caller's stdout and stderr (`npm start`). */
  | 'inherit'
  /** Kept only as a tail, for the error messages (the default). */
  | 'tail'
  /** Appended to this file (created when missing), and kept as a tail. */
  | { logFile: string };

export interface AppProcessOptions {
  /** The app's folder name: `apps/<name>`. */
  name: string;
  /** PORT: the app's public listener on 127.0.0.1. */
  port: number;
  /**
   * The app's environment besides PATH and HOME (HOST is 127.0.0.1 unless given; PORT is
   * always `port`). INTERNAL_PORT, when set, gives `internalUrl`.
   */
  env: Record<string, string>;
  /** `source` (node --import tsx, the default) or the bundle file to run. */
  run?: 'source' | { bundle: string };
  /** How messages name this process (`did-service#1`); `name` by default. */
  label?: string;
  output?: AppOutput;
  /** V8's old-space limit (MiB) for a bundle; DEV_MAX_OLD_SPACE_MB by default. */
  maxOldSpaceMb?: number;
  /** The repository the app comes from; this one by default. */
  repoRoot?: string;
}

/** How one run of the process ended. */
export interface AppExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the harness ended it (stop, kill): an expected end. */
  asked: boolean;
  /** "exited with code 1", "was killed by SIGKILL", "could not be started (…)". */
  description: string;
}

/** `/health/ready` (every upstream answers) or `/health/live` (the process serves). */
export type HealthProbe = '/health/ready' | '/health/live';

const POLL_MS = 150;
const TAIL_CHARS = 10_000;

export class AppProcess {
  readonly name: string;
  readonly label: string;
  readonly port: number;
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** `http://127.0.0.1:<INTERNAL_PORT>` when the environment sets INTERNAL_PORT. */
  readonly internalUrl: string | undefined;
  /** The log file, when output goes to one. */
  readonly logFile: string | undefined;
  /**
   * How every run ended, in order: `code 0`, `signal SIGKILL`; prefixed `asked: ` when the
   * harness ended it, followed by the process's last words (its last error log line) otherwise.
   */
  readonly exits: string[] = [];

  private readonly env: Record<string, string>;
  private readonly args: string[];
  private readonly output: AppOutput;
  private readonly repoRoot: string;
  private child: ChildProcess | undefined;
  private ended: Promise<AppExit> = Promise.resolve({
    code: null,
    signal: null,
    asked: true,
    description: 'was not started',
  });
  private log: WriteStream | undefined;
  private tail = '';
  /** Set while the harness itself ends the process: an exit then is expected. */
  private asked = false;

  constructor(options: AppProcessOptions) {
    if (!/^[a-z][a-z0-9-]*$/.test(options.name)) {
      throw new Error(`not an app name: "${options.name}"`);
    }
    this.name = options.name;
    this.label = options.label ?? options.name;
    this.port = options.port;
    this.url = `http://127.0.0.1:${options.port}`;
    this.internalUrl = options.env.INTERNAL_PORT
      ? `http://127.0.0.1:${options.env.INTERNAL_PORT}`
      : undefined;
    this.output = options.output ?? 'tail';
    this.logFile = typeof this.output === 'object' ? this.output.logFile : undefined;
    this.repoRoot = options.repoRoot ?? REPO_ROOT;
    this.env = { ...options.env };
    const run = options.run ?? 'source';
    this.args =
      run === 'source'
        ? ['--import', 'tsx', `apps/${options.name}/src/main.ts`]
        : [
            '--enable-source-maps',
            `--max-old-space-size=${options.maxOldSpaceMb ?? DEV_MAX_OLD_SPACE_MB}`,
            run.bundle,
          ];
  }

  /** The pid of the current (or last) run. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Exits the harness did not ask for (crashes). */
  get unexpectedExits(): string[] {
    return this.exits.filter((e) => !e.startsWith('asked:'));
  }

  /** What the process wrote last (empty with output `inherit`). */
  outputTail(): string {
    return this.tail;
  }

  running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves when the current run ends (at once when none runs). */
  whenEnded(): Promise<AppExit> {
    return this.ended;
  }

  /** Starts the process (again, on the same port, after it ended). Does not wait for it. */
  start(): void {
    if (this.running()) throw new Error(`${this.label} is already running`);
    this.asked = false;
    this.tail = '';
    if (typeof this.output === 'object') {
      this.log ??= createWriteStream(this.output.logFile, { flags: 'a' });
    }
    const env: Record<string, string> = {};
    if (process.env.PATH) env.PATH = process.env.PATH;
    if (process.env.HOME) env.HOME = process.env.HOME;
    Object.assign(env, { HOST: '127.0.0.1' }, this.env, { PORT: String(this.port) });
    const piped = this.output !== 'inherit';
    const child = spawn(process.execPath, this.args, {
      cwd: this.repoRoot,
      env,
      stdio: ['ignore', piped ? 'pipe' : 'inherit', piped ? 'pipe' : 'inherit', 'ipc'],
    });
    const log = this.log;
    const keep = (chunk: Buffer): void => {
      log?.write(chunk);
      this.tail = (this.tail + chunk.toString('utf8')).slice(-TAIL_CHARS);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    // The channel is only there for the child to notice that its parent is gone: it must not
    // keep the caller's event loop alive.
    child.channel?.unref();
    this.ended = new Promise<AppExit>((resolve) => {
      child.once('exit', (code, signal) => {
        const how = signal ? `signal ${signal}` : `code ${code}`;
        const words = lastWords(this.tail);
        this.exits.push(this.asked ? `asked: ${how}` : words ? `${how}: ${words}` : how);
        resolve({
          code,
          signal,
          asked: this.asked,
          description: signal ? `was killed by ${signal}` : `exited with code ${code}`,
        });
      });
      child.once('error', (err) => {
        if (child.pid !== undefined) return; // an error after the start (a failed kill)
        this.exits.push(`could not be started: ${err.message}`);
        resolve({
          code: null,
          signal: null,
          asked: false,
          description: `could not be started (${err.message})`,
        });
      });
    });
    this.child = child;
  }

  /**
   * Resolves once GET `probe` answers 200. Rejects when the process ends first (saying how, and
   * what it wrote last) or when `deadline` (epoch ms) passes (saying what the last probe saw).
   */
  async waitReady(
    probe: HealthProbe = '/health/ready',
    deadline = Date.now() + 120_000,
  ): Promise<void> {
    let ended: AppExit | undefined;
    void this.ended.then((how) => (ended = how));
    let seen = 'no answer';
    for (;;) {
      await Promise.resolve(); // lets an ended run be seen before the next probe
      if (ended || !this.running()) {
        const how = ended?.description ?? (await this.ended).description;
        throw new Error(`${this.label} ended during start (${how})${this.said()}`);
      }
      try {
        const res = await fetch(`${this.url}${probe}`, { signal: AbortSignal.timeout(3_000) });
        const body = await res.text();
        if (res.status === 200) return;
        seen = `HTTP ${res.status} ${body.slice(0, 300)}`;
      } catch {
        seen = 'no answer';
      }
      if (Date.now() > deadline) {
        throw new Error(
          `${this.label} did not answer ${probe} with 200 at ${this.url} in time (last: ${seen})${this.said()}`,
        );
      }
      await sleep(POLL_MS);
    }
  }

  /** SIGTERM (a graceful drain), SIGKILL after `graceMs`; resolves once it ended. Idempotent. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.child || !this.running()) return;
    this.asked = true;
    await stopChild(this.child, graceMs);
    await this.ended;
  }

  /** SIGKILL at once (sent before this returns); resolves once the process ended. */
  async kill(): Promise<void> {
    if (!this.child || !this.running()) return;
    this.asked = true;
    this.child.kill('SIGKILL');
    await this.ended;
  }

  /** stop(), then closes the log file. */
  async close(graceMs?: number): Promise<void> {
    await this.stop(graceMs);
    const log = this.log;
    this.log = undefined;
    if (log) await new Promise<void>((resolve) => log.end(resolve));
  }

  private said(): string {
    const tail = this.tail.trim();
    return tail ? `; it said:\n${tail}` : '';
  }
}

/** The message of the last log line with level ≥ 50 (error, fatal), else the last line. */
function lastWords(output: string): string {
  const lines = output.trim().split('\n').reverse();
  for (const line of lines) {
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

export interface SpawnAppOptions {
  /** Port to listen on (PORT); a free one by default. */
  port?: number;
  /**
   * Which probe must answer 200 before `spawnApp` resolves: `ready` (GET /health/ready, the
   * default) or `live` (GET /health/live, for an app whose upstreams are left down on purpose).
   */
  waitFor?: 'ready' | 'live';
  /** How long the app has to answer that probe with 200; 60 s by default. */
  timeoutMs?: number;
  /**
   * `source` (node --import tsx, the default) or `bundle`: `apps/<name>/src/main.ts` bundled
   * with esbuild first (bundleEntry, as the stacks run their apps), for specs about what the app
   * does rather than how it is loaded: the process starts on plain node instead of compiling
   * hundreds of modules through tsx (seconds of CPU per start on a busy 2-core machine). The
   * bundle is removed by `stop()`.
   */
  run?: 'source' | 'bundle';
}

export interface SpawnedApp {
  name: string;
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  port: number;
  /**
   * `http://127.0.0.1:<INTERNAL_PORT>`: the internal API's listener (a free port, set for every
   * app; only auth-service, did-service and token-rpc open it).
   */
  internalUrl: string;
  pid: number;
  /**
   * SIGTERM, then SIGKILL after 10 s; resolves once the process has ended (and its bundle, with
   * `run: 'bundle'`, is removed). Idempotent.
   */
  stop(): Promise<void>;
  /** The process itself (restart, kill, exits). */
  app: AppProcess;
}

/**
 * `apps/<name>/src/main.ts` of this repository as its own process from source (AppProcess; or
 * from its bundle with `run: 'bundle'`), on
 * 127.0.0.1, with LOG_LEVEL=silent, INTERNAL_PORT (a free port) and then `env` (which may
 * override both). Resolves once the chosen health probe answers 200; rejects, with what the app
 * wrote last, when the process ends first or the time runs out (the process is then killed).
 */
export async function spawnApp(
  name: string,
  env: Record<string, string>,
  options: SpawnAppOptions = {},
): Promise<SpawnedApp> {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`not an app name: "${name}"`);
  const port = options.port ?? (await freePort());
  const internalPort = await freePort();
  const bundle =
    options.run === 'bundle'
      ? await bundleEntry(REPO_ROOT, join(REPO_ROOT, 'apps', name, 'src', 'main.ts'))
      : undefined;
  const app = new AppProcess({
    name,
    port,
    // Errors only, into the kept tail: a start that fails says why in the error spawnApp throws
    // (with `silent`, an app that exits 1 at start left nothing to read).
    env: { LOG_LEVEL: 'error', INTERNAL_PORT: String(internalPort), ...env },
    output: 'tail',
    run: bundle ? { bundle: bundle.file } : 'source',
  });
  app.start();
  const probe = options.waitFor === 'live' ? '/health/live' : '/health/ready';
  try {
    await app.waitReady(probe, Date.now() + (options.timeoutMs ?? 60_000));
  } catch (err) {
    await app.kill();
    bundle?.remove();
    throw err;
  }
  return {
    name,
    url: app.url,
    port,
    internalUrl: app.internalUrl ?? `http://127.0.0.1:${internalPort}`,
    pid: app.pid as number,
    stop: async () => {
      await app.stop(10_000);
      bundle?.remove();
    },
    app,
  };
}
