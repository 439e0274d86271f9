import { describe, expect, it } from '@jest/globals';
import { noCacheMetrics } from './cache-metrics.js';
import { SingleFlight } from './single-flight.js';
import { TipCache } from './tip-cache.js';

describe('TipCache', () => {
  it('keeps a found value and answers again without loading', async () => {
    const cache = new TipCache(60_000, 10, noCacheMetrics);
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await cache.getOrLoad('k', load)).toEqual({ n: 1 });
    expect(await cache.getOrLoad('k', load)).toEqual({ n: 1 });
    expect(loads).toBe(1);
  });

  it('never keeps "not found" or a failure', async () => {
    const cache = new TipCache(60_000, 10, noCacheMetrics);
    let loads = 0;
    expect(await cache.getOrLoad('k', async () => (++loads, null))).toBeNull();
    await expect(
      cache.getOrLoad('k', async () => {
        loads += 1;
        throw new Error('node down');
      }),
    ).rejects.toThrow('node down');
    expect(await cache.getOrLoad('k', async () => (++loads, 'found'))).toBe('found');
    expect(loads).toBe(3);
  });

  it('with TTL 0 keeps nothing but still shares concurrent loads', async () => {
    const cache = new TipCache(0, 10, noCacheMetrics);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((r) => setImmediate(r));
      return loads;
    };
    const [a, b] = await Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load)]);
    expect([a, b]).toEqual([1, 1]);
    expect(await cache.getOrLoad('k', load)).toBe(2);
  });
});

describe('SingleFlight', () => {
  it('forgets a key once its call settled, failures included', async () => {
    const flight = new SingleFlight();
    await expect(flight.run('k', async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(flight.size).toBe(0);
    expect(await flight.run('k', async () => 2)).toBe(2);
    expect(flight.size).toBe(0);
  });
});
