import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TooManyRequestsError } from '@itp/errors';
import { RedisKvStore } from '@itp/stores';
import { testRedisUrl, uniquePrefix } from '@itp/testing';
import { PerAddressLimit, addressGroup } from './per-address-limit.js';

describe('PerAddressLimit (real Redis)', () => {
  let kv: RedisKvStore;
  beforeAll(() => {
    kv = new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('per-address') });
  });
  afterAll(() => kv.close());

  it('lets exactly `max` of 50 concurrent requests from one address through, then 429 with Retry-After; another address is apart', async () => {
    const limit = new PerAddressLimit(kv, { name: 'race', max: 5, windowMs: 60_000 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => limit.take('203.0.113.7')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refusals = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(refusals).toHaveLength(45);
    for (const err of refusals) {
      expect(err).toBeInstanceOf(TooManyRequestsError);
      expect((err as TooManyRequestsError).retryAfterSeconds).toBeGreaterThan(0);
      expect((err as TooManyRequestsError).retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    await expect(limit.take('203.0.113.8')).resolves.toBeUndefined();
  });

  it('counts an IPv6 /64 as one address and keeps no address in clear', async () => {
    const limit = new PerAddressLimit(kv, { name: 'v6', max: 1, windowMs: 60_000 });
    await limit.take('2001:db8:1:2::1');
    await expect(limit.take('2001:db8:1:2:ffff::9')).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(limit.take('2001:db8:1:3::1')).resolves.toBeUndefined();
    expect(await kv.get(`rl:v6:2001:db8:1:2::/64`)).toBeNull();
  });
});

describe('addressGroup', () => {
  it('keeps IPv4 (also IPv4-mapped IPv6), groups IPv6 by /64, leaves anything else as given', () => {
    expect(addressGroup('198.51.100.4')).toBe('198.51.100.4');
    expect(addressGroup('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('2001:0db8:0001:0002:0003:0004:0005:0006')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressGroup('unknown')).toBe('unknown');
  });
});
