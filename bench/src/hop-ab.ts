/**
 * Before/after of the getBlock hop in ONE run (issue 37): `npx tsx bench/src/hop-ab.ts --before
 * <tree>`. `<tree>` is an older checkout (a `git archive` of a commit, with its own
 * `node_modules/@itp` links and the rest of node_modules linked to this repository's). One dev
 * stack (`npm start`, or BASE) provides Redis, PostgreSQL, the chain and the other services; a
 * block-rpc and a gateway of each tree (esbuild bundles, as the stack runs them) are started
 * beside it with the stack's environment (block-rpc's indexer off; `--log-level`, default info:
 * what a deployment runs, so the access log is written), each gateway forwarding /block to its own
 * block-rpc. Then, in rounds that alternate the order of the two trees, against the same
 * references: a bare express endpoint answering the same getBlock JSON, gateway → block-rpc
 * getBlock [0] (`--connections`, and 1 connection), block-rpc direct. Prints a markdown table
 * (median of the rounds, each round, load average beside every figure).
 *
 *   --rounds 3 --seconds 8 --warmup 2 --connections 50 --log-level info
 *   --cpu-prof <dir>   the four processes under node --cpu-prof (written when they stop)
 *   --keep-logs <dir>  the four processes' output there (else a temporary folder, removed)
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AppProcess, bundleEntry } from '@itp/harness';
import { freePort } from '@itp/dev-chain';
import { httpLoad, type Figure } from './load.js';
import { startReference } from './reference-process.js';
import { openStack } from './stack.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const preload = fileURLToPath(new URL('./cpu-prof-preload.mjs', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    'log-level': { type: 'string', default: 'info' },
    'cpu-prof': { type: 'string' },
    'keep-logs': { type: 'string' },
    'only-direct': { type: 'boolean', default: false },
    /** Start the processes, print their URLs and pids, keep them this many seconds, stop. */
    hold: { type: 'string' },
    /** NODE_OPTIONS for the four processes (e.g. --perf-basic-prof, for perf record). */
    'node-options': { type: 'string' },
  },
});
if (!opts.before) throw new Error('usage: hop-ab.ts --before <tree> [--after <tree>] [...]');
const rounds = Number(opts.rounds);
const seconds = Number(opts.seconds);
const warmupSeconds = Number(opts.warmup);
const connections = Number(opts.connections);
const logLevel = opts['log-level'];
const say = (line: string) => process.stderr.write(`[hop-ab] ${line}\n`);

function environOf(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = line.indexOf('=');
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/** What the harness adds itself (AppProcess): never copied from the stack's processes. */
const OWN = ['PATH', 'HOME', 'PORT', 'INTERNAL_PORT', 'METRICS_PORT', 'NODE_OPTIONS'];
const without = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => !OWN.includes(k)));

interface Variant {
  name: string;
  root: string;
  block: AppProcess;
  gateway: AppProcess;
  removeBundles(): void;
}

const logDir = opts['keep-logs'] ?? mkdtempSync(join(tmpdir(), 'hop-ab-'));
mkdirSync(logDir, { recursive: true });
const profDir = opts['cpu-prof'] ? resolve(opts['cpu-prof']) : undefined;
if (profDir) mkdirSync(profDir, { recursive: true });

const stack = await openStack(repoRoot, process.env.BASE || undefined);
const started: Variant[] = [];
let reference: Awaited<ReturnType<typeof startReference>> | undefined;
try {
  const blockEnv = without(environOf(stack.pids['block-rpc']!));
  const gatewayEnv = without(environOf(stack.pids.gateway!));

  const startVariant = async (name: string, root: string): Promise<Variant> => {
    const blockBundle = await bundleEntry(root, join(root, 'apps/block-rpc/src/main.ts'));
    const gatewayBundle = await bundleEntry(root, join(root, 'apps/gateway/src/main.ts'));
    // Node 20 refuses --cpu-prof in NODE_OPTIONS: a preload starts the profiler instead.
    const prof = (app: string): Record<string, string> =>
      opts['node-options']
        ? { NODE_OPTIONS: opts['node-options'] }
        : profDir
          ? {
              NODE_OPTIONS: `--import ${preload}`,
              CPU_PROF_FILE: join(profDir, `${name}-${app}.cpuprofile`),
            }
          : {};
    const blockPort = await freePort();
    const block = new AppProcess({
      name: 'block-rpc',
      label: `block-rpc (${name})`,
      port: blockPort,
      env: {
        ...blockEnv,
        BLOCK_INDEX_ENABLED: 'false',
        LOG_LEVEL: logLevel,
        INTERNAL_PORT: String(await freePort()),
        METRICS_PORT: String(await freePort()),
        ...prof('block-rpc'),
      },
      run: { bundle: blockBundle.file },
      repoRoot: root,
      output: { logFile: join(logDir, `${name}-block-rpc.log`) },
    });
    block.start();
    await block.waitReady('/health/ready');
    const gateway = new AppProcess({
      name: 'gateway',
      label: `gateway (${name})`,
      port: await freePort(),
      env: {
        ...gatewayEnv,
        BLOCK_RPC_URL: block.url,
        LOG_LEVEL: logLevel,
        INTERNAL_PORT: String(await freePort()),
        METRICS_PORT: String(await freePort()),
        ...prof('gateway'),
      },
      run: { bundle: gatewayBundle.file },
      repoRoot: root,
      output: { logFile: join(logDir, `${name}-gateway.log`) },
    });
    gateway.start();
    await gateway.waitReady('/health/live');
    return {
      name,
      root,
      block,
      gateway,
      removeBundles: () => {
        blockBundle.remove();
        gatewayBundle.remove();
      },
    };
  };

  for (const [name, root] of [
    ['before', resolve(opts.before)],
    ['after', resolve(opts.after ?? repoRoot)],
  ] as const) {
    say(`starting ${name} (${root})`);
    started.push(await startVariant(name, root));
  }

  if (opts.hold) {
    for (const v of started) {
      say(
        `${v.name}: gateway ${v.gateway.url} (pid ${v.gateway.pid}), block-rpc ${v.block.url} (pid ${v.block.pid})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Number(opts.hold) * 1000));
    throw new Error('held: done');
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBlock', params: [0] });
  const sample = await (
    await fetch(`${started[0]!.block.url}/block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
  ).text();
  for (const v of started) {
    const text = await (
      await fetch(`${v.gateway.url}/block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
    ).text();
    if (text !== sample) throw new Error(`${v.name}: the gateway's answer differs:\n${text}`);
  }
  reference = await startReference('express', logDir, sample);

  /** CPU time (user + system) of a process so far, ms (/proc/<pid>/stat, clock ticks of 10 ms). */
  const cpuMs = (pid: number | undefined): number => {
    if (pid === undefined) return 0;
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  type Row = { label: string; figures: Figure[]; loads: number[]; cpu: string[] };
  const rows = new Map<string, Row>();
  // CPU µs per request of the variant's gateway and block-rpc during the counted load (the
  // warm-up is run first, then the counters are read around the measured seconds).
  const measure = async (key: string, url: string, conns: number, v?: Variant) => {
    const load = loadavg()[0]!;
    if (warmupSeconds) {
      await httpLoad({ label: key, url, seconds: warmupSeconds, connections: conns, body });
    }
    const pids = [v?.gateway.pid, v?.block.pid];
    const cpuBefore = pids.map(cpuMs);
    const figure = await httpLoad({ label: key, url, seconds, connections: conns, body });
    const cpu = pids.map((pid, i) =>
      Math.round(((cpuMs(pid) - cpuBefore[i]!) * 1000) / Math.max(1, figure.total)),
    );
    const row = rows.get(key) ?? { label: key, figures: [], loads: [], cpu: [] };
    row.figures.push(figure);
    row.loads.push(Math.round(load * 10) / 10);
    row.cpu.push(v ? `${cpu[0]} + ${cpu[1]}` : '—');
    rows.set(key, row);
    say(
      `${key}: ${figure.rate}/s p50 ${figure.p50} p99 ${figure.p99} mean ${figure.meanMs} cpu µs/req gateway + block-rpc ${cpu.join(' + ')} (load ${load.toFixed(1)})`,
    );
  };

  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? started : [...started].reverse();
    await measure('bare express, same JSON (reference)', reference.url, connections);
    for (const v of order) {
      if (!opts['only-direct']) {
        await measure(`gateway → block-rpc, ${v.name}`, `${v.gateway.url}/block`, connections, v);
      }
      await measure(`block-rpc direct, ${v.name}`, `${v.block.url}/block`, connections, v);
    }
    if (!opts['only-direct']) {
      await measure('bare express, same JSON, 1 conn (reference)', reference.url, 1);
      for (const v of order) {
        await measure(`gateway → block-rpc 1 conn, ${v.name}`, `${v.gateway.url}/block`, 1, v);
      }
    }
  }

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const ref50 = rows.get('bare express, same JSON (reference)')!;
  const ref1 = rows.get('bare express, same JSON, 1 conn (reference)');
  const out: string[] = [
    `| figure | req/s median | rounds (req/s) | p50 ms (rounds) | mean ms (rounds) | ÷ bare express, paired rounds | CPU µs per request, gateway + block-rpc (rounds) | load avg (rounds) | errors |`,
    '| --- | ---: | --- | --- | --- | --- | --- | --- | ---: |',
  ];
  for (const row of rows.values()) {
    const rates = row.figures.map((f) => f.rate);
    const ref = row.label.includes('1 conn') && ref1 ? ref1 : ref50;
    const paired = row.figures.map(
      (f, i) => `${Math.round((f.rate / ref.figures[i]!.rate) * 100)} %`,
    );
    out.push(
      `| ${row.label} | ${Math.round(median(rates))} | ${rates.join(' / ')} | ${row.figures.map((f) => f.p50).join(' / ')} | ${row.figures.map((f) => f.meanMs).join(' / ')} | ${row === ref ? '—' : paired.join(' / ')} | ${row.cpu.join(' / ')} | ${row.loads.join(' / ')} | ${row.figures.reduce((a, f) => a + f.errors, 0)} |`,
    );
  }
  process.stdout.write(
    `\n${new Date().toISOString()} rounds ${rounds}, ${seconds} s + ${warmupSeconds} s warm-up, ${connections} connections, LOG_LEVEL ${logLevel}\n\n${out.join('\n')}\n`,
  );
} finally {
  reference?.stop();
  for (const v of started) {
    await v.gateway.close();
    await v.block.close();
    v.removeBundles();
  }
  await stack.stop();
  if (!opts['keep-logs']) rmSync(logDir, { recursive: true, force: true });
}
