import { afterEach, describe, expect, it } from '@jest/globals';
import { UpstreamBalancer } from './upstream-balancer.js';

let balancer: UpstreamBalancer | undefined;
afterEach(async () => {
  await balancer?.close();
  balancer = undefined;
});

function make(urls: string[], now: { t: number }) {
  balancer = new UpstreamBalancer(urls, { connections: 1, skipMs: 1_000, now: () => now.t });
  return balancer;
}

const order = (b: UpstreamBalancer, n: number) =>
  Array.from({ length: n }, () => b.pick().index + 1);

describe('UpstreamBalancer', () => {
  it('takes the replicas in turn', () => {
    const b = make(['http://a:1', 'http://b:2', 'http://c:3'], { t: 0 });
    expect(order(b, 7)).toEqual([1, 2, 3, 1, 2, 3, 1]);
  });

  it('skips a replica that refused for skipMs, then takes it again', () => {
    const now = { t: 0 };
    const b = make(['http://a:1', 'http://b:2', 'http://c:3'], now);
    b.markRefused(b.targets[1]!);
    expect(order(b, 4)).toEqual([1, 3, 1, 3]);
    now.t = 1_000;
    expect(order(b, 3)).toEqual([1, 2, 3]);
  });

  it('tries skipped replicas in turn when every one is skipped (never refuses on a guess)', () => {
    const b = make(['http://a:1', 'http://b:2'], { t: 0 });
    b.markRefused(b.targets[0]!);
    b.markRefused(b.targets[1]!);
    expect(order(b, 4)).toEqual([1, 2, 1, 2]);
  });

  it('avoids the replica that just refused on the second attempt, unless it is the only one', () => {
    const b = make(['http://a:1', 'http://b:2'], { t: 0 });
    const first = b.targets[0]!;
    b.markRefused(first);
    expect(b.pick(first).index).toBe(1);
    b.markRefused(b.targets[1]!);
    expect(b.pick(b.targets[1]!).index).toBe(0);
  });

  it('an answer clears the skip', () => {
    const b = make(['http://a:1', 'http://b:2'], { t: 0 });
    b.markRefused(b.targets[0]!);
    b.markAnswered(b.targets[0]!);
    expect(order(b, 2)).toEqual([1, 2]);
  });

  it('keeps the base path of a replica URL', () => {
    const b = make(['http://a:1/base/', 'http://b:2'], { t: 0 });
    expect(b.targets.map((t) => t.basePath)).toEqual(['/base', '']);
  });
});
