import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  renderBalancerTable,
  runBalancerBench,
  startOursFront,
  startUndiciFront,
  startUpstreams,
  type Front,
  type Upstreams,
} from './balancer.js';
import type { Figure } from './load.js';

// The benchmark's fronts forward what the upstreams answer and spread requests over both; no
// figure here says anything about speed.
describe('balancer benchmark (ADR 0014)', () => {
  let upstreams: Upstreams;
  const fronts: Record<string, Front> = {};

  beforeAll(async () => {
    upstreams = await startUpstreams(2);
    fronts.ours = await startOursFront(upstreams.urls, 4);
    fronts.undici = await startUndiciFront(upstreams.urls, 4);
  });

  afterAll(async () => {
    await fronts.ours?.close();
    await fronts.undici?.close();
    await upstreams?.close();
  });

  for (const name of ['ours', 'undici']) {
    it(`${name}: passes on each upstream's answer and reaches both replicas`, async () => {
      const replicas = new Set<number>();
      for (let i = 0; i < 6; i += 1) {
        const response = await fetch(`${fronts[name]!.url}/v2/ping`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        const body = (await response.json()) as { ok: boolean; replica: number };
        expect(body.ok).toBe(true);
        replicas.add(body.replica);
      }
      expect([...replicas].sort()).toEqual([0, 1]);
    });
  }

  it('runs both balancers in alternated rounds without errors, each reaching both upstreams', async () => {
    const runs = await runBalancerBench({
      seconds: 0.3,
      warmupSeconds: 0,
      rounds: 2,
      connections: [2],
      poolConnections: 2,
    });
    expect(runs).toHaveLength(1);
    const [run] = runs;
    for (const figures of [run!.ours, run!.undici]) {
      expect(figures).toHaveLength(2);
      for (const figure of figures) {
        expect(figure.total).toBeGreaterThan(0);
        expect(figure.errors).toBe(0);
      }
    }
    for (const cpu of [run!.cpuUsPerRequest.ours, run!.cpuUsPerRequest.undici]) {
      expect(cpu).toHaveLength(2);
      for (const us of cpu) expect(us).toBeGreaterThan(0);
    }
    for (const spread of [run!.spread.ours, run!.spread.undici]) {
      expect(spread).toHaveLength(2);
      expect(Math.min(...spread)).toBeGreaterThan(0);
    }
  }, 30_000);

  it('renders the median round, the range, the paired ratio, the CPU time, the spread and the errors of each balancer', () => {
    const figure = (rate: number): Figure => ({
      label: '',
      rate,
      p50: 2,
      p99: 9,
      meanMs: 1.5,
      errors: 0,
      total: rate,
    });
    const table = renderBalancerTable([
      {
        connections: 50,
        ours: [figure(100), figure(300), figure(200)],
        undici: [figure(250), figure(250), figure(250)],
        spread: { ours: [50, 50], undici: [49.9, 50.1] },
        cpuUsPerRequest: { ours: [90, 80, 100], undici: [85, 95, 105] },
      },
    ]);
    expect(table.split('\n').slice(2)).toEqual([
      '| 50 | UpstreamBalancer (ours) | 200 (100–300) | 0.8 (0.4–1.2) | 2 | 9 | 1.5 | 90 | 50 / 50 | 0 |',
      '| 50 | undici BalancedPool | 250 (250–250) | — | 2 | 9 | 1.5 | 95 | 49.9 / 50.1 | 0 |',
    ]);
  });
});
