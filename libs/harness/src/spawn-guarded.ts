/**
 * Every child process that a test, a benchmark or a tool starts goes through here (or through the
 * harness classes built on it): `spawnGuarded` registers the child with the reaper for as long as
 * it runs, so that a caller killed mid-test (a crashed or SIGKILLed jest worker) does not leave
 * it behind; `runProcess` is a one-shot command (a CLI run) with its output collected.
 */
import {
  spawn,
  type ChildProcess,
  type ChildProcessByStdio,
  type SpawnOptions,
} from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { guard } from './reaper.js';

export interface GuardedSpawnOptions extends SpawnOptions {
  /** What runs, for the reaper's registration (e.g. `redis-server 6380`). */
  label: string;
}

/**
 * `child_process.spawn`, with the child registered with the reaper until it exits (its whole
 * process group when `detached`: the group it leads).
 */
export function spawnGuarded(
  command: string,
  args: readonly string[],
  options: GuardedSpawnOptions,
): ChildProcess {
  const { label, ...spawnOptions } = options;
  const child = spawn(command, [...args], spawnOptions);
  if (child.pid === undefined) return child; // did not start: its 'error' event says why
  const guarded = guard({ label, pid: child.pid, processGroup: spawnOptions.detached === true });
  child.once('exit', () => guarded.release());
  return child;
}

export interface RunOptions {
  /** The child's whole environment (nothing of the caller's is passed on unless given here). */
  env: Record<string, string | undefined>;
  cwd?: string;
  /** Written to the child's stdin, which is then closed. */
  stdin?: string;
  /** Called with everything written to stderr so far, on each write. */
  onStderr?: (stderr: string) => void;
  /** SIGKILL after this many milliseconds (the result then has `signal: 'SIGKILL'`). */
  timeoutMs?: number;
  label?: string;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end through `spawnGuarded`; resolves with its exit and its output. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<RunResult> {
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawnGuarded(command, args, {
      label: options.label ?? `${command} ${args.join(' ')}`.slice(0, 200),
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    }) as ChildProcessByStdio<Writable, Readable, Readable>;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onStderr?.(stderr);
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => undefined); // a child that exits without reading its stdin
    child.stdin.end(options.stdin ?? '');
  });
}
