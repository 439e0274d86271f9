import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { waitUntil } from './processes.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Alive and not a zombie. */
function alive(pid: number, group = false): boolean {
  try {
    process.kill(group ? -pid : pid, 0);
  } catch {
    return false;
  }
  if (group) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

// The caller: starts a LocalRedis (a temp dir of its own) and guards a process group and a dir,
// releases the guard of one more process, says what it started, and waits to be killed.
const caller = `
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const { LocalRedis } = await import(${JSON.stringify(here('./redis.ts'))});
const { guard } = await import(${JSON.stringify(here('./reaper.ts'))});
const redis = await LocalRedis.start();
const released = spawn('sleep', ['300'], { stdio: 'ignore' });
guard({ label: 'released', pid: released.pid }).release();
const group = spawn('sh', ['-c', 'sleep 300 & sleep 300'], { detached: true, stdio: 'ignore' });
guard({ label: 'group', pid: group.pid, processGroup: true });
const dir = mkdtempSync(join(tmpdir(), 'itp-reaper-spec-'));
guard({ label: 'dir', dir });
process.stdout.write(JSON.stringify({ redisPid: redis.pid, redisDir: redis.dir, released: released.pid, group: group.pid, dir }) + '\\n');
setInterval(() => undefined, 1000);
`;

interface Started {
  redisPid: number;
  redisDir: string;
  released: number;
  group: number;
  dir: string;
}

describe('guard', () => {
  it('stops and removes what a SIGKILLed caller guarded, and leaves what it released', async () => {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', caller],
      { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the caller exited (${code})`)));
    });
    const started = JSON.parse(line) as Started;
    try {
      expect(alive(started.redisPid)).toBe(true);
      expect(existsSync(started.redisDir)).toBe(true);
      expect(alive(started.group, true)).toBe(true);

      child.kill('SIGKILL');
      await waitUntil(
        () =>
          !alive(started.redisPid) &&
          !existsSync(started.redisDir) &&
          !alive(started.group, true) &&
          !existsSync(started.dir),
        'the reaper cleaning up after the killed caller',
        20_000,
      );
      expect(alive(started.released)).toBe(true);
    } finally {
      for (const [pid, group] of [
        [started.released, false],
        [started.group, true],
        [started.redisPid, false],
      ] as const) {
        try {
          process.kill(group ? -pid : pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    }
  }, 60_000);
});
