/**
 * End-to-end test of the README's start command: `npm start` in the repo root with a clean
 * environment, one request through the gateway, Ctrl-C to the whole process group, nothing left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@itp/testing/wait-for';
import { choosePorts } from './choose-ports.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const READY_DEADLINE_MS = 60_000;

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

interface Stack {
  npm: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startStack(port: number, dataDir: string): Stack {
  const env: Record<string, string> = { PORT: String(port), DATA_DIR: dataDir };
  // A clean environment: no REDIS_URL, DATABASE_URL, ETH_RPC_URL, NODE_OPTIONS or JEST_* here.
  if (process.env.PATH) env.PATH = process.env.PATH;
  if (process.env.HOME) env.HOME = process.env.HOME;
  const npm = spawn('npm', ['start'], {
    cwd: repoRoot,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  npm.stdout?.on('data', keep);
  npm.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { npm, output: () => output, exited };
}

async function waitForGateway(stack: Stack, url: string): Promise<void> {
  let seen = 'no answer';
  const ready = await waitFor(
    async () => {
      if (stack.npm.exitCode !== null) return 'exited';
      try {
        const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(3000) });
        if (res.status === 200) return 'ready';
        seen = `HTTP ${res.status} ${await res.text()}`;
      } catch {
        seen = 'no answer';
      }
      return undefined;
    },
    { what: 'the gateway to be ready', timeoutMs: READY_DEADLINE_MS, intervalMs: 100 },
  ).catch(() => 'late');
  if (ready !== 'ready') {
    throw new Error(`gateway not ready (last: ${seen}); npm start said:\n${stack.output()}`);
  }
  // The stack supervises (restarts a service that ends) once it has seen every service ready
  // and printed its banner; the gateway can answer ready a moment before that.
  await waitFor(() => stack.output().includes('dev stack ready'), {
    what: 'the dev stack banner',
    timeoutMs: READY_DEADLINE_MS,
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
async function stopAndCheck(stack: Stack, how: 'ctrl-c' | 'sigterm'): Promise<void> {
  const pid = stack.npm.pid as number;
  const tree = treeOf(pid);
  expect(tree.length).toBeGreaterThan(6); // npm, the stack (node), anvil, five services
  if (how === 'ctrl-c') process.kill(-pid, 'SIGINT');
  else process.kill(pid, 'SIGTERM');
  const ended = await stack.exited;
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
  expect(allProcs().filter((p) => p.pgrp === pid && p.state !== 'Z')).toEqual([]);
  expect(stack.output()).toContain('[dev] stopped; chain state saved to');
}

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'itp-dev-'));
  const started: Stack[] = [];

  afterAll(() => {
    // Whatever a failed test left of a stack's process group (nothing, when the tests pass).
    for (const stack of started) {
      try {
        process.kill(-(stack.npm.pid as number), 'SIGKILL');
      } catch {
        // no process left in that group
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  let firstBlock: BlockRecord | undefined;

  it('serves the block API through the gateway and stops cleanly on Ctrl-C', async () => {
    const [port] = await choosePorts(1);
    const url = `http://127.0.0.1:${port}`;
    const stack = startStack(port as number, dataDir);
    started.push(stack);
    await waitForGateway(stack, url);
    firstBlock = await getBlock(url, []);
    expect(firstBlock.number).toBeGreaterThanOrEqual(1); // the DID registry's deployment
    await stopAndCheck(stack, 'ctrl-c');
    expect(existsSync(join(dataDir, 'chain', 'state.json'))).toBe(true);
  }, 120_000);

  it('keeps the chain across a restart on the same data folder, restarts a service that dies, and stops on SIGTERM to npm', async () => {
    expect(firstBlock).toBeDefined();
    const earlier = firstBlock as BlockRecord;
    const [port] = await choosePorts(1);
    const url = `http://127.0.0.1:${port}`;
    const stack = startStack(port as number, dataDir);
    started.push(stack);
    await waitForGateway(stack, url);
    expect(await getBlock(url, [earlier.number])).toMatchObject(earlier);

    // One service dies: the stack restarts it (a supervisor), says so, and keeps running.
    const blockRpc = treeOf(stack.npm.pid as number).find((p) =>
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
    expect(stack.npm.exitCode).toBeNull();
    expect(await getBlock(url, [earlier.number])).toMatchObject(earlier);
    await stopAndCheck(stack, 'sigterm');
  }, 150_000);
});
