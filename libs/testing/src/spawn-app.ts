import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@itp/dev-chain';

/** The repository root (this file is libs/testing/src/spawn-app.ts). */
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

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
  /** SIGTERM, then SIGKILL after 10 s; resolves once the process has ended. Idempotent. */
  stop(): Promise<void>;
}

const POLL_MS = 100;
const STOP_GRACE_MS = 10_000;

/**
 * Test helper: `apps/<name>/src/main.ts` of this repository as its own process (`node --import
 * tsx`, so apps never import apps), on 127.0.0.1, with LOG_LEVEL=silent, HOST, PORT and then `env`
 * (which may override LOG_LEVEL; nothing else of the test runner's environment but PATH and HOME
 * is passed on). Resolves once the chosen health probe answers 200; rejects, with the app's
 * stderr, when the process ends first or the time runs out (the process is then killed).
 */
export async function spawnApp(
  name: string,
  env: Record<string, string>,
  options: SpawnAppOptions = {},
): Promise<SpawnedApp> {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`not an app name: "${name}"`);
  const port = options.port ?? (await freePort());
  const internalPort = await freePort();
  const probe = options.waitFor === 'live' ? '/health/live' : '/health/ready';
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const base: Record<string, string> = { HOST: '127.0.0.1', LOG_LEVEL: 'silent' };
  if (process.env.PATH) base.PATH = process.env.PATH;
  if (process.env.HOME) base.HOME = process.env.HOME;
  const child = spawn(process.execPath, ['--import', 'tsx', `apps/${name}/src/main.ts`], {
    cwd: repoRoot,
    env: { ...base, INTERNAL_PORT: String(internalPort), ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-10_000);
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  let ended = false;
  void exited.then(() => (ended = true));
  const stop = async (): Promise<void> => {
    if (ended) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  const url = `http://127.0.0.1:${port}`;
  const internalUrl = `http://127.0.0.1:${internalPort}`;
  let seen = 'no answer';
  while (!ended) {
    try {
      const res = await fetch(`${url}${probe}`, { signal: AbortSignal.timeout(2_000) });
      seen = `HTTP ${res.status} ${(await res.text()).slice(0, 300)}`;
      if (res.status === 200) {
        return { name, url, port, internalUrl, pid: child.pid as number, stop };
      }
    } catch {
      seen = 'no answer';
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(
        `${name} did not answer ${probe} with 200 in time (last: ${seen}): ${stderr}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(
    `${name} ended during start (code ${child.exitCode}, ${child.signalCode}): ${stderr}`,
  );
}
