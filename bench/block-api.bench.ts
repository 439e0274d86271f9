/**
 * Loopback benchmark of the block API: the same stack `npm start` runs (dev mode), measured
 * against its physical limits on this machine — the dev chain answering eth_getBlockByNumber
 * directly, and bare node:http. Bounded: each scenario runs BENCH_SECONDS (default 5) with
 * BENCH_CONNECTIONS (default 50) connections, only to 127.0.0.1, then everything stops.
 *
 *   npx tsx bench/block-api.bench.ts            # prints a Markdown table to paste in RESULTS.md
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, startAnvil } from '@itp/dev-chain';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function run(scenario: string, url: string, body?: string): Promise<Row> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    method: body ? 'POST' : 'GET',
    headers: body ? { 'content-type': 'application/json' } : {},
    body,
  });
  return {
    scenario,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const rpc = (method: string, params: unknown[]) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

async function waitReady(url: string, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready in time`);
}

async function main(): Promise<void> {
  const rows: Row[] = [];

  // 1. Physical limits: bare node:http and the dev chain itself.
  const bare = createServer((_req, res) => res.end('{"ok":true}'));
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const barePort = (bare.address() as { port: number }).port;
  rows.push(await run('bare node:http (limit of the HTTP stack)', `http://127.0.0.1:${barePort}/`));
  bare.close();

  const anvil = await startAnvil({ port: await freePort() });
  rows.push(
    await run(
      'anvil eth_getBlockByNumber(latest, full) direct',
      anvil.url,
      rpc('eth_getBlockByNumber', ['latest', true]),
    ),
  );
  await anvil.stop();

  // 2. The product as `npm start` runs it.
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'itp-bench-'));
  const stack = spawn('npm', ['start'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
    detached: true,
  });
  try {
    const gateway = `http://127.0.0.1:${port}`;
    await waitReady(`${gateway}/health/ready`, 120_000);
    rows.push(await run('gateway GET /health/live', `${gateway}/health/live`));
    rows.push(
      await run(
        'gateway → block-rpc getBlock [] (latest, tip cache)',
        `${gateway}/block`,
        rpc('getBlock', []),
      ),
    );
    rows.push(
      await run('gateway → block-rpc getBlock [0]', `${gateway}/block`, rpc('getBlock', [0])),
    );
    rows.push(
      await run(
        'gateway → block-rpc getBlockNumber',
        `${gateway}/block`,
        rpc('getBlockNumber', []),
      ),
    );
  } finally {
    if (stack.pid) process.kill(-stack.pid, 'SIGINT');
    await new Promise((r) => stack.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(
    `Machine: ${cpus().length} × ${cpu}, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}; ` +
      `${connections} connections, ${seconds} s each, loopback, load generator on the same cores.\n\n` +
      '| scenario | req/s | p50 ms | p99 ms | errors |\n|---|---:|---:|---:|---:|\n' +
      rows
        .map((r) => `| ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} |`)
        .join('\n') +
      '\n',
  );
}

await main();
