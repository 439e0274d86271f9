/**
 * Child processes and readiness waits of the harness (no jest in its imports: usable from plain
 * scripts, the resilience suite, bench and npm start).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** Resolves once `check` is true; throws naming `what` after `timeoutMs`. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
export function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has ended. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** uid/gid of the `postgres` system user when we run as root (PostgreSQL refuses root). */
export function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0) throw new Error('running as root and no `postgres` user exists');
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Resolves once PostgreSQL at `url` answers a query (accepting TCP is not the same as accepting
 * queries: a starting server refuses sessions for a while); throws after `timeoutMs`.
 */
export async function waitForPostgresQueries(url: string, timeoutMs = 30_000): Promise<void> {
  const pg = (await import('pg')).default;
  await waitUntil(
    async () => {
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    'postgres queries',
    timeoutMs,
  );
}

/** True while process `pid` exists (also one of another user, which signals refuse with EPERM). */
/**
 * SIGSTOP to `pid`, returning once the kernel shows it stopped (Linux: state T in
 * /proc/<pid>/stat; at most 1 s), so that a request sent right after finds it frozen. Elsewhere
 * (no /proc) or for a process gone, it returns at once.
 */
export function freeze(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(pid, 'SIGSTOP');
  } catch {
    return; // gone
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + 1000; Date.now() < deadline;) {
    let state: string | undefined;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch {
      return;
    }
    if (state === 'T' || state === 't') return;
    Atomics.wait(pause, 0, 0, 5);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
