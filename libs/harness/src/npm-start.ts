/**
 * `npm start` (the dev stack of tools/dev: dev chain, every service, the gateway in development
 * mode, demo user and relying party seeded) as a child process group: startDevStack. Used by the
 * dev-mode flows (e2e/src/dev-stack.spec.ts: one stack for the CLI, SDK, demo and bench-smoke
 * suites, and the checks of `npm start` itself), by bench (bench/src/stack.ts) and by
 * tools/api-docs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@itp/dev-chain';
import { REPO_ROOT } from './app-process.js';
import { guard } from './reaper.js';
import { spawnGuarded } from './spawn-guarded.js';

/**
 * The per-minute limits of the dev stack lifted (0 = no limit): for load (bench: the transfer
 * scenario makes far more than 300 calls a minute from one address; Sign-In with Ethereum nonces,
 * OIDC authorization requests and QR login pages, passkey authentication options per address) and for suites that share one
 * stack. Said so in bench/RESULTS.md.
 */
export const DEV_STACK_UNLIMITED_ENV: Readonly<Record<string, string>> = {
  RATE_LIMIT_WALLET_PER_MINUTE: '0',
  RATE_LIMIT_TEMP_KEY_PER_MINUTE: '0',
  RATE_LIMIT_SIGN_DATA_PER_MINUTE: '0',
  RATE_LIMIT_READ_PER_MINUTE: '0',
  SIWE_NONCES_PER_IP_PER_MINUTE: '0',
  OIDC_QR_PAGES_PER_IP_PER_MINUTE: '0',
  OIDC_AUTHORIZATIONS_PER_IP_PER_MINUTE: '0',
  PASSKEY_OPTIONS_PER_IP_PER_MINUTE: '0',
  // OpenID4VCI c_nonces (did-service): one per credential, bench's issuance flows ask for hundreds.
  OID4VCI_NONCES_PER_IP_PER_MINUTE: '0',
};

export interface DevStackOptions {
  /** Variables for `npm start` besides PORT, DATA_DIR, PATH and HOME (e.g. LOG_LEVEL, REDIS_URL). */
  env?: Record<string, string>;
  /** How long the gateway has to answer GET /health/ready with 200; 75 s by default. */
  readyTimeoutMs?: number;
  /** SIGINT, then SIGKILL after this many milliseconds when stopping; 15 s by default. */
  stopGraceMs?: number;
  /** The repository whose `npm start` runs; this one by default. */
  repoRoot?: string;
  /**
   * The data folder, kept by `stop` (a second start on it finds the chain state the first one
   * saved); the caller removes it. A fresh temporary folder, removed by `stop`, by default.
   */
  dataDir?: string;
}

/** How `stop` ends the stack: Ctrl-C to the whole group (a terminal), or SIGTERM to npm alone. */
export type DevStackStop = 'ctrl-c' | 'sigterm';

export interface DevStackExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface DevStack {
  /** `http://localhost:<port>`: the gateway, without a trailing slash. */
  url: string;
  port: number;
  /** The data folder (removed by `stop` unless the caller gave it). */
  dataDir: string;
  /** npm's pid, which leads the stack's process group. */
  pid: number;
  /** Milliseconds from spawning `npm start` to the gateway's first 200 on /health/ready. */
  startupMs: number;
  /** The last 20 000 characters `npm start` wrote (stdout and stderr). */
  output(): string;
  /** Resolves with npm's exit once it has ended. */
  exited: Promise<DevStackExit>;
  /**
   * Stops the whole stack (Ctrl-C to its process group by default; SIGKILL to the group after
   * the grace period) and removes the data folder unless the caller gave it. Idempotent: the
   * first call's way counts. Resolves with npm's exit.
   */
  stop(how?: DevStackStop): Promise<DevStackExit>;
}

const POLL_MS = 250;
/** What `npm start` prints once every service is up and it supervises them (tools/dev/banner.ts). */
const BANNER = 'dev stack ready';

/**
 * `npm start` as a child process group, on a free gateway port and a fresh temporary DATA_DIR
 * (or the caller's), with LOG_LEVEL=warn and nothing of the caller's environment but PATH and
 * HOME. Resolves once the gateway's /health/ready answers 200 and `npm start` has printed its
 * banner (from then on it restarts a service that ends); rejects with what the stack said when it
 * ends first or the time runs out (it is then stopped).
 */
export async function startDevStack(options: DevStackOptions = {}): Promise<DevStack> {
  const port = await freePort();
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'itp-stack-'));
  const env: Record<string, string> = { LOG_LEVEL: 'warn', ...options.env };
  env.PORT = String(port);
  env.DATA_DIR = dataDir;
  if (process.env.PATH) env.PATH = process.env.PATH;
  if (process.env.HOME) env.HOME = process.env.HOME;
  // The stack's ports come from this jest worker's slice of the range (see freePort).
  if (process.env.JEST_WORKER_ID) env.JEST_WORKER_ID = process.env.JEST_WORKER_ID;
  const started = performance.now();
  // A caller killed before stop(): the reaper stops the whole group (spawnGuarded) and removes
  // the data folder it made.
  const npm = spawnGuarded('npm', ['start'], {
    label: 'npm start',
    cwd: options.repoRoot ?? REPO_ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = npm.pid as number;
  const folder = ownDataDir ? guard({ label: 'npm start data', dir: dataDir }) : undefined;
  let output = '';
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-20_000));
  npm.stdout?.on('data', keep);
  npm.stderr?.on('data', keep);
  const exited = new Promise<DevStackExit>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // Its pipes end when npm's last descendant that holds them does: not an open handle after it.
  const closed = new Promise<void>((resolve) => npm.once('close', () => resolve()));

  let stopping: Promise<DevStackExit> | undefined;
  const stop = (how: DevStackStop = 'ctrl-c'): Promise<DevStackExit> =>
    (stopping ??= (async () => {
      let signalled = true;
      try {
        if (how === 'ctrl-c') process.kill(-pid, 'SIGINT');
        else process.kill(pid, 'SIGTERM');
      } catch {
        signalled = false; // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }, options.stopGraceMs ?? 15_000);
      const ended = await exited;
      // After SIGTERM to npm alone, npm may end before the stack does: the pipes close once
      // every process of the group has (SIGKILLed at the grace period at the latest). A process
      // that left the group and still holds them must not keep the caller alive: destroyed then.
      if (signalled) {
        let late: NodeJS.Timeout | undefined;
        await Promise.race([
          closed,
          new Promise<void>((resolve) => {
            late = setTimeout(resolve, (options.stopGraceMs ?? 15_000) + 5000);
          }),
        ]);
        clearTimeout(late);
      }
      clearTimeout(timer);
      npm.stdout?.destroy();
      npm.stderr?.destroy();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
      folder?.release();
      return ended;
    })());

  const stack: DevStack = {
    url: `http://localhost:${port}`,
    port,
    dataDir,
    pid,
    startupMs: 0,
    output: () => output,
    exited,
    stop,
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 75_000);
  let ready = false;
  while (Date.now() < deadline && npm.exitCode === null && npm.signalCode === null) {
    if (!ready) {
      try {
        const res = await fetch(`${stack.url}/health/ready`, {
          signal: AbortSignal.timeout(3000),
        });
        await res.arrayBuffer();
        if (res.status === 200) {
          ready = true;
          stack.startupMs = performance.now() - started;
        }
      } catch {
        // not listening yet
      }
    }
    // The gateway can answer ready a moment before npm start has seen every service ready.
    if (ready && output.includes(BANNER)) return stack;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  await stop();
  throw new Error(
    `npm start did not get ready (data folder ${dataDir}${ownDataDir ? ', removed' : ''}); it said:\n${output}`,
  );
}
