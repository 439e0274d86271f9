/**
 * `npm start` itself (the README's start command), last against the shared dev stack: its whole
 * process tree ends on Ctrl-C to its process group, saving the chain state; a second start on
 * the same data folder has the same chain, restarts a service that dies, and ends on SIGTERM to
 * npm alone (as a process manager sends it); a start that cannot get ready ends with what the
 * stack said, leaving nothing behind. The stacks are started through the harness (startDevStack:
 * a clean environment, the reaper).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { startDevStack, type DevStack, type DevStackStop } from '@itp/harness';
import { waitFor } from '@itp/testing/wait-for';
import type { DevSuiteContext } from './context.js';

interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  startTime: string;
  state: string;
}

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which is in parentheses and may contain spaces).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      state: fields[0] ?? '',
      ppid: Number(fields[1]),
      pgrp: Number(fields[2]),
      startTime: fields[19] ?? '',
    };
  } catch {
    return undefined;
  }
}

function allProcs(): ProcInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((p): p is ProcInfo => p !== undefined);
}

/** Every process below `root` in the tree, or in its process group. */
function treeOf(root: number): ProcInfo[] {
  const procs = allProcs();
  const found = new Map<number, ProcInfo>();
  const walk = (pid: number) => {
    for (const p of procs) {
      if (p.ppid === pid && !found.has(p.pid)) {
        found.set(p.pid, p);
        walk(p.pid);
      }
    }
  };
  const self = procs.find((p) => p.pid === root);
  if (self) found.set(root, self);
  walk(root);
  for (const p of procs) if (p.pgrp === root) found.set(p.pid, p);
  return [...found.values()];
}

/** The processes of `recorded` that still run (same pid and start time, not a zombie). */
function stillRunning(recorded: ProcInfo[]): ProcInfo[] {
  return recorded.filter((p) => {
    const now = readProc(p.pid);
    return now !== undefined && now.startTime === p.startTime && now.state !== 'Z';
  });
}

interface BlockRecord {
  number: number;
  hash: string;
}

async function getBlock(url: string, params: unknown[]): Promise<BlockRecord> {
  const res = await fetch(`${url}/block`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBlock', params }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    result: { resultCode: string; resultData: BlockRecord };
  };
  expect(body.result.resultCode).toBe('200');
  expect(Number.isInteger(body.result.resultData.number)).toBe(true);
  expect(body.result.resultData.hash).toMatch(/^0x[0-9a-fA-F]{64}$/);
  return body.result.resultData;
}

/**
 * Stops the stack, then checks that no process of its tree or group is left. `ctrl-c` signals the
 * whole process group, as a terminal does; `sigterm` signals npm alone, as a process manager does.
 */
async function stopAndCheck(stack: DevStack, how: DevStackStop): Promise<void> {
  const tree = treeOf(stack.pid);
  expect(tree.length).toBeGreaterThan(6); // npm, the stack (node), anvil, five services
  const ended = await stack.stop(how);
  // npm's `sh -c` ends by the signal it got even when the stack exits 0, and npm then ends the
  // same way, or (when the signal reaches it before its child ended) exits with the shell's
  // status for it: 130 after Ctrl-C, 143 after SIGTERM. The stack itself must still stop
  // cleanly: checked below once its whole tree has ended.
  const expected = how === 'ctrl-c' ? 'SIGINT' : 'SIGTERM';
  const shellStatus = how === 'ctrl-c' ? 130 : 143;
  if (ended.code !== 0 && ended.code !== shellStatus && ended.signal !== expected) {
    throw new Error(`npm start ended with ${JSON.stringify(ended)}; it said:\n${stack.output()}`);
  }
  // npm may end before the stack does (on SIGTERM); grandchildren end right after their parents.
  await waitFor(() => stillRunning(tree).length === 0, {
    what: 'every process of the stack to end',
    timeoutMs: 30_000,
    intervalMs: 50,
  }).catch(() => undefined); // the expect below names what is left
  expect(stillRunning(tree)).toEqual([]);
  expect(allProcs().filter((p) => p.pgrp === stack.pid && p.state !== 'Z')).toEqual([]);
  // Not killed at the grace period: the stack stopped itself and said so.
  expect(stack.output()).toContain('[dev] stopped; chain state saved to');
}

/**
 * Registers the checks of `npm start` itself. `dataDir` is the shared stack's data folder (given
 * by the spec, kept by its stop): the second start runs on it.
 */
export function npmStartSuite({ stack: devStack }: DevSuiteContext, dataDir: string): void {
  describe('npm start itself', () => {
    let restarted: DevStack | undefined;
    let lastBlock: BlockRecord | undefined;

    afterAll(async () => {
      await restarted?.stop();
    }, 60_000);

    it('serves the block API through the gateway and stops cleanly on Ctrl-C', async () => {
      const stack = devStack();
      lastBlock = await getBlock(stack.url, []);
      expect(lastBlock.number).toBeGreaterThanOrEqual(1); // the DID registry's deployment
      await stopAndCheck(stack, 'ctrl-c');
      expect(existsSync(join(dataDir, 'chain', 'state.json'))).toBe(true);
    }, 60_000);

    it('keeps the chain across a restart on the same data folder, restarts a service that dies, and stops on SIGTERM to npm', async () => {
      expect(lastBlock).toBeDefined();
      const earlier = lastBlock as BlockRecord;
      // A grace period longer than the checks' wait: a stack that ignores SIGTERM is not
      // SIGKILLed before the checks below have seen it still running.
      restarted = await startDevStack({ dataDir, readyTimeoutMs: 90_000, stopGraceMs: 40_000 });
      const stack = restarted;
      expect(await getBlock(stack.url, [earlier.number])).toMatchObject(earlier);

      // One service dies: the stack restarts it (a supervisor), says so, and keeps running.
      const blockRpc = treeOf(stack.pid).find((p) =>
        readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').includes('block-rpc'),
      );
      expect(blockRpc).toBeDefined();
      process.kill(blockRpc!.pid, 'SIGKILL');
      await waitFor(() => stack.output().includes('[dev] block-rpc is back'), {
        what: 'block-rpc to be back',
        timeoutMs: 30_000,
        intervalMs: 50,
      }).catch(() => undefined); // the expects below tell what was said instead
      expect(stack.output()).toContain(
        '[dev] block-rpc was killed by SIGKILL; restarting it in 1 s (restart 1 in a row)',
      );
      expect(stack.output()).toContain('[dev] block-rpc is back');
      expect(await Promise.race([stack.exited, Promise.resolve('running')])).toBe('running');
      expect(await getBlock(stack.url, [earlier.number])).toMatchObject(earlier);
      await stopAndCheck(stack, 'sigterm');
    }, 150_000);

    it('a start that cannot get ready rejects with what the stack said and leaves nothing', async () => {
      const failure = await startDevStack({
        env: { DATABASE_URL: 'not-a-database-url' },
        readyTimeoutMs: 60_000,
      }).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(Error);
      const message = (failure as Error).message;
      const [, folder] =
        /^npm start did not get ready \(data folder (\S+), removed\); it said:\n/.exec(message) ??
        [];
      expect(folder).toMatch(/itp-stack-/);
      expect(existsSync(folder as string)).toBe(false);
      expect(message).toContain('DATABASE_URL');
    }, 90_000);
  });
}
