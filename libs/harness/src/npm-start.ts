/**
 * `npm start` (the dev stack of tools/dev: dev chain, every service, the gateway in development
 * mode, demo user and relying party seeded) as a child process group: startDevStack. Used by the
 * end-to-end specs that want the product exactly as a developer starts it (through @itp/testing),
 * by bench (bench/src/stack.ts) and by tools/api-docs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@itp/dev-chain';
import { REPO_ROOT } from './app-process.js';
import { guard } from './reaper.js';

export interface DevStackOptions {
  /** Variables for `npm start` besides PORT, DATA_DIR, PATH and HOME (e.g. LOG_LEVEL, REDIS_URL). */
  env?: Record<string, string>;
  /** How long the gateway has to answer GET /health/ready with 200; 75 s by default. */
  readyTimeoutMs?: number;
  /** SIGINT, then SIGKILL after this many milliseconds when stopping; 15 s by default. */
  stopGraceMs?: number;
  /** The repository whose `npm start` runs; this one by default. */
  repoRoot?: string;
}

export interface DevStack {
  /** `http://localhost:<port>`: the gateway, without a trailing slash. */
  url: string;
  port: number;
  /** The data folder (a fresh temporary one, removed by `stop`). */
  dataDir: string;
  /** Milliseconds from spawning `npm start` to the gateway's first 200 on /health/ready. */
  startupMs: number;
  /** The last 20 000 characters `npm start` wrote (stdout and stderr). */
  output(): string;
  /** Stops the whole stack (its process group) and removes the data folder. Idempotent. */
  stop(): Promise<void>;
}

const POLL_MS = 250;

/**
 * `npm start` as a child process group, on a free gateway port and a fresh temporary DATA_DIR,
 * with LOG_LEVEL=warn and nothing of the caller's environment but PATH and HOME. Resolves once the gateway's /health/ready answers 200; rejects with what the
 * stack said when it ends first or the time runs out (it is then stopped).
 */
export async function startDevStack(options: DevStackOptions = {}): Promise<DevStack> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'itp-stack-'));
  const env: Record<string, string> = { LOG_LEVEL: 'warn', ...options.env };
  env.PORT = String(port);
  env.DATA_DIR = dataDir;
  if (process.env.PATH) env.PATH = process.env.PATH;
  if (process.env.HOME) env.HOME = process.env.HOME;
  // The stack's ports come from this jest worker's slice of the range (see freePort).
  if (process.env.JEST_WORKER_ID) env.JEST_WORKER_ID = process.env.JEST_WORKER_ID;
  const started = performance.now();
  const npm: ChildProcess = spawn('npm', ['start'], {
    cwd: options.repoRoot ?? REPO_ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-20_000));
  npm.stdout?.on('data', keep);
  npm.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  // A caller killed before stop(): the reaper stops the whole group and removes the data folder.
  const guarded = guard({
    label: 'npm start',
    pid: npm.pid as number,
    processGroup: true,
    dir: dataDir,
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      const pid = npm.pid as number;
      let signalled = true;
      try {
        process.kill(-pid, 'SIGINT');
      } catch {
        signalled = false; // already gone
      }
      if (signalled) {
        const timer = setTimeout(() => {
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // gone meanwhile
          }
        }, options.stopGraceMs ?? 15_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
      guarded.release();
    })());

  const stack: DevStack = {
    url: `http://localhost:${port}`,
    port,
    dataDir,
    startupMs: 0,
    output: () => output,
    stop,
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 75_000);
  while (Date.now() < deadline && npm.exitCode === null && npm.signalCode === null) {
    try {
      const res = await fetch(`${stack.url}/health/ready`, { signal: AbortSignal.timeout(3000) });
      await res.arrayBuffer();
      if (res.status === 200) return { ...stack, startupMs: performance.now() - started };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  await stop();
  throw new Error(
    `npm start did not get ready (data folder ${dataDir}, removed); it said:\n${output}`,
  );
}
