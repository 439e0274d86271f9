import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { settleAnvilState, type StateSettlement } from './anvil-state.js';
import { assertPortFree, freePort } from './free-port.js';

export interface AnvilOptions {
  /** Default: a free port (retried when another process takes it before anvil binds it). */
  port?: number;
  host?: string;
  chainId?: number;
  /**
   * File the chain state is loaded from at start and written to on exit (anvil --state). Before
   * anvil loads it, the genesis blocks anvil added on earlier starts are removed from it
   * (settleAnvilState), so that block 0 is the same at every start and block 1 links to it.
   */
  stateFile?: string;
  /** Mine a block every N seconds as well as on each transaction (anvil --block-time). */
  blockTimeSeconds?: number;
  /** Extra anvil arguments. */
  args?: string[];
  /** Where anvil's own output goes. Default: ignored. */
  stdio?: 'inherit' | 'ignore';
}

export interface RunningAnvil {
  url: string;
  process: ChildProcess;
  /** With a stateFile: what was found in it and done to it before anvil loaded it. */
  state?: StateSettlement;
  stop(): Promise<void>;
}

/** Path of the anvil binary that the npm package @foundry-rs/anvil installed for this platform. */
export function anvilBinaryPath(): string {
  const require = createRequire(import.meta.url);
  const platform = `${process.platform === 'win32' ? 'win32' : process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  const pkg = require.resolve(`@foundry-rs/anvil-${platform}/package.json`);
  const bin = join(dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(bin)) throw new Error(`anvil binary not found at ${bin}; run npm ci`);
  return bin;
}

/** anvil ended before it answered; `output` is the end of what it wrote to stderr. */
class AnvilExitedError extends Error {
  constructor(
    code: number | null,
    readonly output: string,
  ) {
    super(`anvil exited with code ${code}${output ? `: ${output.trim()}` : ''}`);
  }
}

class PortTakenError extends Error {}

function isPortTaken(err: unknown): boolean {
  return (
    err instanceof PortTakenError ||
    (err instanceof AnvilExitedError && /address already in use/i.test(err.output))
  );
}

async function waitForRpc(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new AnvilExitedError(child.exitCode, output());
    }
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (res.ok) return;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`anvil did not answer at ${url} within ${timeoutMs} ms: ${String(lastError)}`);
}

/** Starts anvil (the dev chain) and resolves once it answers JSON-RPC. */
export async function startAnvil(options: AnvilOptions = {}): Promise<RunningAnvil> {
  const state = options.stateFile ? { state: settleAnvilState(options.stateFile) } : {};
  if (options.port !== undefined)
    return { ...(await startAnvilOn(options.port, options)), ...state };
  // A port found free can be taken before anvil binds it: then anvil exits, and we try another.
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await startAnvilOn(await freePort(options.host), options)), ...state };
    } catch (err) {
      if (attempt === 3 || !isPortTaken(err)) throw err;
    }
  }
}

/** How long after spawning anvil must still run to count as started (see startAnvilOn). */
const BIND_SETTLE_MS = 250;

async function startAnvilOn(port: number, options: AnvilOptions): Promise<RunningAnvil> {
  const host = options.host ?? '127.0.0.1';
  // Checked first: else another node on that port could answer the readiness probe for anvil.
  await assertPortFree(host, port).catch((err: unknown) => {
    throw new PortTakenError(`anvil cannot listen on ${host}:${port}: ${String(err)}`);
  });
  const args = [
    '--host',
    host,
    '--port',
    String(port),
    '--chain-id',
    String(options.chainId ?? 31337),
    '--silent',
  ];
  if (options.stateFile) args.push('--state', options.stateFile);
  if (options.blockTimeSeconds) args.push('--block-time', String(options.blockTimeSeconds));
  args.push(...(options.args ?? []));
  const stdio = options.stdio ?? 'ignore';
  const spawnedAt = Date.now();
  const child = spawn(anvilBinaryPath(), args, {
    stdio: ['ignore', stdio, stdio === 'inherit' ? 'inherit' : 'pipe'],
  });
  // Keep the end of anvil's stderr for the error message should it exit at start.
  let errorOutput = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errorOutput = (errorOutput + chunk.toString()).slice(-2000);
  });
  const url = `http://${host}:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitForRpc(url, child, () => errorOutput, 15_000);
    // A node that took the port between the check above and anvil's bind answers the probe while
    // anvil exits (address in use): a started anvil is still running a moment after spawning.
    const settle = spawnedAt + BIND_SETTLE_MS - Date.now();
    if (settle > 0) await new Promise((resolve) => setTimeout(resolve, settle));
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new PortTakenError(`anvil could not listen on ${host}:${port}: ${errorOutput.trim()}`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, process: child, stop };
}
