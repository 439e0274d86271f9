import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { waitUntil } from './processes.js';
import { runProcess } from './spawn-guarded.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

// The caller: one guarded child still running, one that ended (its guard released on exit: the
// reaper must not signal a pid that may be reused), then it waits to be killed.
const caller = `
const { spawnGuarded } = await import(${JSON.stringify(here('./spawn-guarded.ts'))});
const running = spawnGuarded('sleep', ['300'], { label: 'running', stdio: 'ignore' });
const ended = spawnGuarded('true', [], { label: 'ended', stdio: 'ignore' });
await new Promise((resolve) => ended.once('exit', resolve));
process.stdout.write(JSON.stringify({ running: running.pid }) + '\\n');
setInterval(() => undefined, 1000);
`;

describe('spawnGuarded', () => {
  it('a child of a SIGKILLed caller is stopped by the reaper', async () => {
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
    const { running } = JSON.parse(line) as { running: number };
    try {
      expect(alive(running)).toBe(true);
      child.kill('SIGKILL');
      await waitUntil(() => !alive(running), 'the reaper stopping the guarded child', 20_000);
      expect(alive(running)).toBe(false);
    } finally {
      try {
        process.kill(running, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }, 60_000);
});

describe('runProcess', () => {
  it('gives the exit code and both outputs, with stdin written and only the given environment', async () => {
    const run = await runProcess(
      'sh',
      ['-c', 'read line; echo "out:$line:${ONLY-unset}:${HOME-unset}"; echo err >&2; exit 3'],
      { env: { PATH: process.env.PATH, ONLY: 'given' }, stdin: 'hello\n' },
    );
    expect(run).toEqual({
      code: 3,
      signal: null,
      stdout: 'out:hello:given:unset\n',
      stderr: 'err\n',
    });
  });

  it('reports stderr as it comes and kills a run that outlasts its timeout', async () => {
    const seen: string[] = [];
    const run = await runProcess('sh', ['-c', 'echo started >&2; exec sleep 30'], {
      env: { PATH: process.env.PATH },
      onStderr: (stderr) => seen.push(stderr),
      timeoutMs: 500,
    });
    expect(run.signal).toBe('SIGKILL');
    expect(run.code).toBeNull();
    expect(seen).toEqual(['started\n']);
  });

  it('rejects when the command cannot be started', async () => {
    await expect(
      runProcess('/nonexistent/command', [], { env: { PATH: process.env.PATH } }),
    ).rejects.toThrow(/ENOENT/);
  });
});
