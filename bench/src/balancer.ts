/**
 * The gateway's replica balancer (`@itp/gateway/upstream-balancer`: round robin over one undici
 * Pool per replica, passive health) against undici's own `BalancedPool`, on loopback, for ADR
 * 0014. Two upstream express servers in this process answer a small JSON; one node:http front
 * per balancer forwards each request to them the way the gateway's forwarder does (`stream`
 * straight into the client's response); autocannon loads each front in turn, rounds alternated
 * so both see the same machine. Bounded in time: rounds × 2 × (seconds + warm-up) per
 * connection count.
 *
 *   npx tsx bench/src/balancer.ts [--seconds 5] [--rounds 3] [--connections 50,1]
 */
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { BalancedPool, type Dispatcher } from 'undici';
import { UpstreamBalancer } from '@itp/gateway/upstream-balancer';
import { httpLoad, round, type Figure } from './load.js';

/** What the fronts pass on of an upstream's answer (the same for both). */
const passedOn = (headers: Dispatcher.ResponseData['headers']): OutgoingHttpHeaders => ({
  'content-type': String(headers['content-type'] ?? 'application/json'),
  'content-length': String(headers['content-length'] ?? '0'),
});

export interface Upstreams {
  urls: string[];
  /** Requests each upstream answered. */
  counts: number[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** `count` express servers answering GET /v2/ping with a small JSON that names them. */
export async function startUpstreams(count = 2): Promise<Upstreams> {
  const counts = Array.from({ length: count }, () => 0);
  const servers = Array.from({ length: count }, (_, replica) => {
    const app = express();
    app.disable('x-powered-by');
    app.get('/v2/ping', (_req, res) => {
      counts[replica]! += 1;
      res.json({ ok: true, replica, padding: 'x'.repeat(200) });
    });
    return createServer(app);
  });
  const urls = await Promise.all(servers.map(listen));
  return { urls, counts, close: async () => void (await Promise.all(servers.map(closeServer))) };
}

export interface Front {
  url: string;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function startFront(handler: Handler, closeDispatcher: () => Promise<void>): Promise<Front> {
  const server = createServer(handler);
  const url = await listen(server);
  return {
    url,
    close: async () => {
      await closeServer(server);
      await closeDispatcher();
    },
  };
}

const failed = (res: ServerResponse) => () => {
  if (!res.headersSent) res.writeHead(502).end();
  else res.destroy();
};

/** A front over the gateway's UpstreamBalancer: pick, stream, mark the replica answered. */
export function startOursFront(urls: string[], connections: number): Promise<Front> {
  const balancer = new UpstreamBalancer(urls, { connections, skipMs: 5_000 });
  return startFront(
    (req, res) => {
      const target = balancer.pick();
      target.pool
        .stream(
          { path: target.basePath + (req.url ?? '/'), method: 'GET' },
          ({ statusCode, headers }) => {
            balancer.markAnswered(target);
            res.writeHead(statusCode, passedOn(headers));
            return res;
          },
        )
        .catch(failed(res));
    },
    () => balancer.close(),
  );
}

/** A front over undici's BalancedPool with the same Pool options as the gateway's. */
export function startUndiciFront(urls: string[], connections: number): Promise<Front> {
  const pool = new BalancedPool(urls, {
    connections,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 30_000,
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  return startFront(
    (req, res) => {
      pool
        .stream({ path: req.url ?? '/', method: 'GET' }, ({ statusCode, headers }) => {
          res.writeHead(statusCode, passedOn(headers));
          return res;
        })
        .catch(failed(res));
    },
    () => pool.destroy(),
  );
}

export interface BalancerRun {
  connections: number;
  /** Per balancer, one figure per round. */
  ours: Figure[];
  undici: Figure[];
  /** Share of requests each upstream answered, per balancer (%). */
  spread: { ours: number[]; undici: number[] };
  /**
   * Per balancer and round, this process's CPU time (user + system) per request, µs: load
   * generator, fronts and upstreams together, so the difference is the balancers'. Other work on
   * the machine slows a round but adds little CPU time to it.
   */
  cpuUsPerRequest: { ours: number[]; undici: number[] };
}

export interface BalancerOptions {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number[];
  /** Keep-alive connections per replica (the gateway's UPSTREAM_MAX_SOCKETS). */
  poolConnections: number;
}

const share = (counts: number[]) => {
  const total = counts.reduce((a, b) => a + b, 0);
  return counts.map((c) => (total ? round((c / total) * 100, 1) : 0));
};

/** Both balancers in alternated rounds (ours first in odd rounds, undici first in even ones). */
export async function runBalancerBench(
  options: BalancerOptions,
  log: (line: string) => void = () => undefined,
): Promise<BalancerRun[]> {
  const upstreams = await startUpstreams(2);
  const fronts = {
    ours: await startOursFront(upstreams.urls, options.poolConnections),
    undici: await startUndiciFront(upstreams.urls, options.poolConnections),
  };
  const runs: BalancerRun[] = [];
  try {
    for (const connections of options.connections) {
      const run: BalancerRun = {
        connections,
        ours: [],
        undici: [],
        spread: { ours: [], undici: [] },
        cpuUsPerRequest: { ours: [], undici: [] },
      };
      const spreadCounts = { ours: [0, 0], undici: [0, 0] };
      for (let r = 0; r < options.rounds; r += 1) {
        const order = r % 2 === 0 ? (['ours', 'undici'] as const) : (['undici', 'ours'] as const);
        for (const name of order) {
          const load = {
            label: `${name}, ${connections} connections, round ${r + 1}`,
            url: `${fronts[name].url}/v2/ping`,
            connections,
          };
          if (options.warmupSeconds > 0) {
            await httpLoad({ ...load, seconds: options.warmupSeconds });
          }
          const before = [...upstreams.counts];
          const cpuBefore = process.cpuUsage();
          const figure = await httpLoad({ ...load, seconds: options.seconds });
          const cpu = process.cpuUsage(cpuBefore);
          upstreams.counts.forEach((count, i) => (spreadCounts[name][i]! += count - before[i]!));
          const cpuUs = figure.total > 0 ? round((cpu.user + cpu.system) / figure.total, 1) : 0;
          run[name].push(figure);
          run.cpuUsPerRequest[name].push(cpuUs);
          log(
            `${figure.label}: ${figure.rate} req/s, p50 ${figure.p50} ms, p99 ${figure.p99} ms, ` +
              `${cpuUs} µs CPU per request`,
          );
        }
      }
      run.spread = { ours: share(spreadCounts.ours), undici: share(spreadCounts.undici) };
      runs.push(run);
    }
  } finally {
    await fronts.ours.close();
    await fronts.undici.close();
    await upstreams.close();
  }
  return runs;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Per round, ours ÷ undici req/s of the two back-to-back runs of that round (both saw about the
 * same machine): the median of these ratios is steadier than a ratio of medians when other work
 * shares the cores.
 */
export function pairedRatios(run: BalancerRun): number[] {
  return run.ours.map((figure, i) => {
    const other = run.undici[i]?.rate ?? 0;
    return other > 0 ? round(figure.rate / other, 3) : 0;
  });
}

/**
 * A markdown table: per connection count and balancer, the median round and the range; on ours'
 * row the median paired ratio (ours ÷ undici, > 1: ours faster).
 */
export function renderBalancerTable(runs: readonly BalancerRun[]): string {
  const rows = runs.flatMap((run) =>
    (['ours', 'undici'] as const).map((name) => {
      const figures = run[name];
      const rates = figures.map((f) => f.rate);
      const errors = figures.reduce((sum, f) => sum + f.errors, 0);
      const ratios = pairedRatios(run);
      const ratio =
        name === 'ours'
          ? `${round(median(ratios), 2)} (${Math.min(...ratios)}–${Math.max(...ratios)})`
          : '—';
      return (
        `| ${run.connections} | ${name === 'ours' ? 'UpstreamBalancer (ours)' : 'undici BalancedPool'} | ` +
        `${round(median(rates))} (${Math.min(...rates)}–${Math.max(...rates)}) | ${ratio} | ` +
        `${median(figures.map((f) => f.p50))} | ${median(figures.map((f) => f.p99))} | ` +
        `${round(median(figures.map((f) => f.meanMs)), 3)} | ${round(median(run.cpuUsPerRequest[name]), 1)} | ` +
        `${run.spread[name].join(' / ')} | ${errors} |`
      );
    }),
  );
  return [
    '| connections | balancer | req/s, median round (range) | ours ÷ undici, paired rounds: median (range) | p50 ms | p99 ms | mean ms | CPU µs per request (median) | upstream share % | errors |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : undefined;
}

async function main(argv: string[]): Promise<void> {
  const options: BalancerOptions = {
    seconds: Number(option(argv, 'seconds') ?? 5),
    warmupSeconds: 1,
    rounds: Number(option(argv, 'rounds') ?? 3),
    connections: (option(argv, 'connections') ?? '50,1').split(',').map(Number),
    poolConnections: 128,
  };
  const write = (line: string) => process.stdout.write(`${line}\n`);
  const loadBefore = loadavg().map((l) => round(l, 2));
  const runs = await runBalancerBench(options, write);
  const loadAfter = loadavg().map((l) => round(l, 2));
  write('');
  write(
    `${new Date().toISOString()}; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}); ` +
      `node ${process.version}; load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}; ` +
      `${options.rounds} rounds of ${options.seconds} s (+${options.warmupSeconds} s warm-up) each`,
  );
  write('');
  write(renderBalancerTable(runs));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main(process.argv.slice(2));
}
