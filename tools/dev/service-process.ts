import { spawn, type ChildProcess } from 'node:child_process';

export interface ServiceProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** Resolves with a description of how the process ended ("exited with code 1"). */
  exited: Promise<string>;
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/**
 * V8's old-space limit of each dev service, in MiB. Without one V8 sizes the heap for the
 * machine's memory (GiBs) and lets it grow with the garbage of a busy service (garbage, not a
 * leak: the heap in use after a collection stays small); with this limit resident memory stays
 * flat at the same throughput (bench/RESULTS.md, "start-up and memory"). In a container Node derives the limit from the cgroup's memory limit.
 */
export const DEV_MAX_OLD_SPACE_MB = 192;

/**
 * Starts the bundle of `apps/<name>/src/main.ts` (see bundle-services.ts) as its own node process,
 * with source maps on so that stack traces name the TypeScript files, and the heap limit above. The IPC channel is how the
 * service notices that the dev stack is gone: it shuts down when the channel closes.
 */
export function spawnService(
  name: string,
  url: string,
  env: Record<string, string>,
  repoRoot: string,
  script: string,
): ServiceProcess {
  const args = ['--enable-source-maps', `--max-old-space-size=${DEV_MAX_OLD_SPACE_MB}`, script];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(describeExit(code, signal)));
    child.once('error', (err) => resolve(`could not be started (${err.message})`));
  });
  return { name, url, child, exited };
}

const isRunning = (child: ChildProcess): boolean =>
  child.exitCode === null && child.signalCode === null;

/** SIGTERM to each service still running; SIGKILL to those still running after `graceMs`. */
export async function stopServices(services: ServiceProcess[], graceMs: number): Promise<void> {
  const running = services.filter((s) => isRunning(s.child));
  for (const s of running) s.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  const outcome = await Promise.race([Promise.all(running.map((s) => s.exited)), deadline]);
  clearTimeout(timer);
  if (outcome !== 'late') return;
  const late = running.filter((s) => isRunning(s.child));
  for (const s of late) s.child.kill('SIGKILL');
  await Promise.all(late.map((s) => s.exited));
}

export function killServices(services: ServiceProcess[]): void {
  for (const s of services) if (isRunning(s.child)) s.child.kill('SIGKILL');
}
