import { readFileSync, readdirSync } from 'node:fs';
import { DEV_STACK_UNLIMITED_ENV, startDevStack } from '@itp/harness';
import { waitFor } from '@itp/testing/wait-for';

/** Where the parts of a running dev stack listen (loopback). */
export interface StackUrls {
  gateway: string;
  auth: string;
  did: string;
  token: string;
  block: string;
  chain: string;
}

/**
 * One process's memory in MiB. `rss` (VmRSS) counts every page the process has resident, also
 * those it shares with the others: the node executable's code (~44 MiB) is in the RSS of each of
 * the five Node processes but in memory once. `pss` (Pss of /proc/<pid>/smaps_rollup) divides each
 * shared page among the processes that share it, so the sum of `pss` is what the stack occupies.
 */
export interface ProcessMemory {
  rss: number;
  pss: number;
}

export interface RunningStack {
  urls: StackUrls;
  /** Time from spawning `npm start` to the gateway's /health/ready answering 200 (undefined: BASE). */
  startupMs: number | undefined;
  /** Process ids of the stack's parts, by name (`gateway`, `auth-service`, …; from /proc). */
  pids: Record<string, number>;
  /** Memory of every process of the stack, MiB, by process (see ProcessMemory). */
  residentMiB(): Record<string, ProcessMemory>;
  stop(): Promise<void>;
}

export async function waitReady(url: string, deadlineMs: number): Promise<void> {
  // A refused connection counts as "not up yet" (waitFor retries a condition that throws).
  await waitFor(async () => (await fetch(url)).status === 200, {
    what: `${url} to answer 200`,
    timeoutMs: deadlineMs,
    intervalMs: 100,
  });
}

interface Proc {
  pid: number;
  env: Map<string, string>;
  args: string;
}

/** The processes of this user that /proc lets us read (environment, command line). */
function processes(): Proc[] {
  const out: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = new Map<string, string>();
      for (const line of readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0')) {
        const eq = line.indexOf('=');
        if (eq > 0) env.set(line.slice(0, eq), line.slice(eq + 1));
      }
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      out.push({ pid: Number(entry), env, args });
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

const portOf = (url: string) => new URL(url).port;

/**
 * The stack behind a gateway on this machine: the gateway process is the one whose PORT is the
 * gateway's and that has the upstream URLs in its environment; each upstream is the process with
 * that PORT; the chain is block-rpc's ETH_RPC_URL. The dev stack chooses these ports at start
 * and prints only the gateway's, so they are read from /proc (only this user's processes).
 */
export function discoverStack(gatewayUrl: string): {
  urls: StackUrls;
  pids: Record<string, number>;
} {
  const all = processes();
  const gateway = all.find(
    (p) => p.env.get('PORT') === portOf(gatewayUrl) && p.env.has('BLOCK_RPC_URL'),
  );
  if (!gateway)
    throw new Error(`no gateway process with PORT ${portOf(gatewayUrl)} found in /proc`);
  const first = (name: string) => (gateway.env.get(name) ?? '').split(',')[0]!.trim();
  const auth = first('AUTH_SERVICE_URL');
  const did = first('DID_SERVICE_URL');
  const token = first('TOKEN_RPC_URL');
  const block = first('BLOCK_RPC_URL');
  const byPort = (url: string) =>
    all.find((p) => p.env.get('PORT') === portOf(url) && p !== gateway);
  const blockProc = byPort(block);
  const chain = blockProc?.env.get('ETH_RPC_URL');
  if (!chain) throw new Error('block-rpc process (ETH_RPC_URL) not found in /proc');
  const pids: Record<string, number> = {};
  const named = {
    gateway,
    'auth-service': byPort(auth),
    'did-service': byPort(did),
    'token-rpc': byPort(token),
    'block-rpc': blockProc,
  };
  for (const [name, proc] of Object.entries(named)) if (proc) pids[name] = proc.pid;
  const chainPort = portOf(chain);
  const anvil = all.find((p) => p.args.includes('anvil') && p.args.includes(`--port ${chainPort}`));
  if (anvil) pids['chain (anvil)'] = anvil.pid;
  return { urls: { gateway: gatewayUrl, auth, did, token, block, chain }, pids };
}

const kibField = (text: string, field: string): number | undefined => {
  const value = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1];
  return value === undefined ? undefined : Number(value);
};

export function memoryOf(pids: Record<string, number>): Record<string, ProcessMemory> {
  const out: Record<string, ProcessMemory> = {};
  for (const [name, pid] of Object.entries(pids)) {
    try {
      const rss = kibField(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS') ?? 0;
      let pss = rss;
      try {
        pss = kibField(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss') ?? rss;
      } catch {
        // a kernel without smaps_rollup (before 4.14): RSS, shared pages counted in each process
      }
      out[name] = { rss: Math.round(rss / 1024), pss: Math.round(pss / 1024) };
    } catch {
      // exited
    }
  }
  return out;
}

/** Uses the stack at `base` (BASE), or starts `npm start` on a free port with a fresh data folder. */
export async function openStack(repoRoot: string, base: string | undefined): Promise<RunningStack> {
  if (base) {
    await waitReady(`${base}/health/ready`, 10_000);
    const { urls, pids } = discoverStack(base.replace(/\/$/, ''));
    return {
      urls,
      pids,
      startupMs: undefined,
      residentMiB: () => memoryOf(pids),
      stop: async () => {},
    };
  }
  const stack = await startDevStack({
    repoRoot,
    // The per-minute limits lifted for the run: said so in RESULTS.md. REDIS_URL, when bench has
    // it, for a stack on Redis instead of the in-process stand-in (the sessions scenario, 14).
    env: {
      ...DEV_STACK_UNLIMITED_ENV,
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    },
    readyTimeoutMs: 120_000,
  });
  try {
    const { urls, pids } = discoverStack(`http://127.0.0.1:${stack.port}`);
    return {
      urls,
      pids,
      startupMs: stack.startupMs,
      residentMiB: () => memoryOf(pids),
      stop: async () => {
        await stack.stop();
      },
    };
  } catch (err) {
    await stack.stop();
    throw err;
  }
}
