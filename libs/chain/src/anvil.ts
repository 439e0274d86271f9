import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface AnvilOptions {
  port: number;
  host?: string;
  chainId?: number;
  /** File the chain state is loaded from at start and written to on exit (anvil --state). */
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

async function waitForRpc(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}`);
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
export async function startAnvil(options: AnvilOptions): Promise<RunningAnvil> {
  const host = options.host ?? '127.0.0.1';
  const args = [
    '--host',
    host,
    '--port',
    String(options.port),
    '--chain-id',
    String(options.chainId ?? 31337),
    '--silent',
  ];
  if (options.stateFile) args.push('--state', options.stateFile);
  if (options.blockTimeSeconds) args.push('--block-time', String(options.blockTimeSeconds));
  args.push(...(options.args ?? []));
  const child = spawn(anvilBinaryPath(), args, {
    stdio: ['ignore', options.stdio ?? 'ignore', options.stdio ?? 'ignore'],
  });
  const url = `http://${host}:${options.port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitForRpc(url, child, 15_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, process: child, stop };
}
