/**
 * Cleans up what the harness started even when its caller is killed (SIGKILL, a crashed jest
 * worker, a closed terminal): the first `guard()` of a process starts one watchdog
 * (reaper-watchdog.mjs, on plain node, in its own process group so that a signal to the caller's
 * group does not reach it) that reads registrations and releases on its stdin. When that stdin
 * ends, because the caller exited in whatever way, the watchdog stops every process still
 * registered and removes every directory still registered. Whatever is released in time (a normal
 * stop or close) is left alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface GuardOptions {
  /** What is guarded, for the reader of a registration. */
  label: string;
  /** A process to stop (SIGTERM, then SIGKILL after a grace period) if the caller dies. */
  pid?: number;
  /** Signal the process group `pid` leads instead of the process alone. */
  processGroup?: boolean;
  /** A directory to remove if the caller dies (after the processes have ended). */
  dir?: string;
}

export interface Guard {
  /** Forget the registration: the caller has cleaned up itself. Idempotent. */
  release(): void;
}

/** How long the watchdog waits after SIGTERM before SIGKILL. */
const GRACE_MS = 5000;

let watchdog: ChildProcess | undefined;
let nextId = 0;

function startWatchdog(): ChildProcess {
  const script = fileURLToPath(new URL('./reaper-watchdog.mjs', import.meta.url));
  // Without the caller's NODE_OPTIONS (loaders, jest's VM flags): the watchdog is plain JS.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [script, String(GRACE_MS)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env,
  });
  // Neither the watchdog nor the pipe to it keeps the caller alive.
  child.unref();
  const stdin = child.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null;
  stdin?.unref?.();
  child.stdin?.on('error', () => undefined);
  child.once('exit', () => {
    if (watchdog === child) watchdog = undefined;
  });
  return child;
}

function send(message: Record<string, unknown>): void {
  watchdog ??= startWatchdog();
  watchdog.stdin?.write(`${JSON.stringify(message)}\n`);
}

/** Registers a process and/or a directory with this process's watchdog. */
export function guard(options: GuardOptions): Guard {
  const id = ++nextId;
  send({ op: 'add', id, ...options });
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      send({ op: 'release', id });
    },
  };
}
