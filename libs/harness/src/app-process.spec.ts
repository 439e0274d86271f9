import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { freePort } from '@itp/dev-chain';
import { AppProcess, REPO_ROOT } from './app-process.js';
import { waitUntil } from './processes.js';

/** The gateway needs no store: with its upstreams down it is live (not ready). */
const DOWN = 'http://127.0.0.1:9';
const GATEWAY_ENV = {
  APP_ENV: 'test',
  LOG_LEVEL: 'info',
  AUTH_SERVICE_URL: DOWN,
  DID_SERVICE_URL: DOWN,
  TOKEN_RPC_URL: DOWN,
  BLOCK_RPC_URL: DOWN,
};

/** Running (a zombie, which an orphan's new parent may not reap at once, has ended). */
const isAlive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('AppProcess', () => {
  const dir = mkdtempSync(join(tmpdir(), 'itp-app-process-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('logs to its file, starts again on the same port, and tells asked ends from crashes', async () => {
    const logFile = join(dir, 'gateway.log');
    const app = new AppProcess({
      name: 'gateway',
      port: await freePort(),
      env: GATEWAY_ENV,
      output: { logFile },
    });
    try {
      app.start();
      await app.waitReady('/health/live', Date.now() + 60_000);
      expect((await fetch(`${app.url}/health/ready`)).status).toBe(503);
      const firstPid = app.pid as number;
      await app.stop();
      expect(isAlive(firstPid)).toBe(false);
      expect(app.exits).toEqual([expect.stringMatching(/^asked: /)]);

      app.start();
      await app.waitReady('/health/live', Date.now() + 60_000);
      expect(app.pid).not.toBe(firstPid);
      process.kill(app.pid as number, 'SIGKILL');
      const exit = await app.whenEnded();
      expect(exit).toMatchObject({ signal: 'SIGKILL', asked: false });
      expect(exit.description).toBe('was killed by SIGKILL');
      expect(app.unexpectedExits).toEqual([expect.stringMatching(/^signal SIGKILL/)]);
    } finally {
      await app.close();
    }
    expect(readFileSync(logFile, 'utf8').length).toBeGreaterThan(0);
  }, 90_000);

  it('rejects waitReady with how the process ended and what it said', async () => {
    const { AUTH_SERVICE_URL: _omitted, ...env } = GATEWAY_ENV;
    const app = new AppProcess({ name: 'gateway', port: await freePort(), env });
    app.start();
    await expect(app.waitReady('/health/live', Date.now() + 60_000)).rejects.toThrow(
      /gateway ended during start \(exited with code \d+\)[\s\S]*AUTH_SERVICE_URL/,
    );
  }, 90_000);

  it('ends when its caller is killed (the IPC channel closes)', async () => {
    const port = await freePort();
    const module = fileURLToPath(new URL('./app-process.ts', import.meta.url));
    const script = `
      const { AppProcess } = await import(${JSON.stringify(module)});
      const app = new AppProcess({ name: 'gateway', port: ${port}, env: ${JSON.stringify({ ...GATEWAY_ENV, SHUTDOWN_TIMEOUT_MS: '3000' })} });
      app.start();
      await app.waitReady('/health/live', Date.now() + 60_000);
      console.log('pid ' + app.pid);
      setInterval(() => undefined, 1000);
    `;
    const caller = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let said = '';
    caller.stdout?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    try {
      await waitUntil(() => /pid \d+/.test(said), 'the caller to start the gateway', 60_000);
      const appPid = Number(/pid (\d+)/.exec(said)?.[1]);
      expect(isAlive(appPid)).toBe(true);
      caller.kill('SIGKILL');
      // Within its shutdown deadline (3 s drain + backstop), also on a machine under load.
      await waitUntil(() => !isAlive(appPid), 'the gateway to end with its caller', 40_000);
    } finally {
      caller.kill('SIGKILL');
    }
  }, 90_000);
});
