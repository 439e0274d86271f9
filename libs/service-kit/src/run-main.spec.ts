import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';

/** A port the kernel hands out (service-kit cannot import @itp/testing: it depends on it). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const fixture = fileURLToPath(new URL('./testing/crashing-app.ts', import.meta.url));

async function run(
  crash: 'rejection' | 'exception',
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: {
      PATH: process.env.PATH ?? '',
      APP_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      METRICS_PORT: String(await freePort()),
      CRASH: crash,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out };
}

function fatalLine(out: string): { msg?: string; err?: { message?: string } } | undefined {
  return out
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg?: string; err?: { message?: string } })
    .find((line) => line.level === 60);
}

describe('runMain: a bug that escapes every handler', () => {
  it.each([
    ['rejection', 'unhandled promise rejection', 'nobody handles this'],
    ['exception', 'uncaught exception', 'thrown outside any handler'],
  ] as const)(
    '%s: one fatal log line naming the error, then exit 1',
    async (crash, kind, message) => {
      const { code, out } = await run(crash);
      expect(code).toBe(1);
      expect(fatalLine(out)).toMatchObject({
        msg: `crashing-app: ${kind}; exiting`,
        err: { message },
      });
    },
    30_000,
  );
});
