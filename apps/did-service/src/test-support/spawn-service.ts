import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@itp/testing';

export interface SpawnedService {
  url: string;
  stop(): Promise<void>;
}

/**
 * Another app of the repository as its own process (apps never import apps): `node --import tsx
 * apps/<app>/src/main.ts` with `env`, on a free port, ready once /health/live answers.
 */
export async function spawnService(
  app: string,
  env: Record<string, string>,
): Promise<SpawnedService> {
  const main = fileURLToPath(new URL(`../../../${app}/src/main.ts`, import.meta.url));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: Buffer[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) break;
    const live = await fetch(`${url}/health/live`).then(
      (r) => r.ok,
      () => false,
    );
    if (live) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${app} did not start: ${Buffer.concat(stderr).toString('utf8')}`);
}
