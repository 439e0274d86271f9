import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { tcpOpen } from './processes.js';
import { LocalRedis } from './redis.js';

const client = (url: string) =>
  new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, commandTimeout: 1000 });

async function withClient<T>(url: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = client(url);
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

describe('LocalRedis', () => {
  const opened: LocalRedis[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const redis of opened.splice(0)) await redis.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('runs in a temp dir of its own that close() removes, and forgets its data on a restart', async () => {
    const redis = await LocalRedis.start();
    opened.push(redis);
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(existsSync(redis.logFile)).toBe(true);
    expect(redis.pid).toEqual(expect.any(Number));
    await withClient(redis.url, (r) => r.set('k', 'v'));

    await redis.stop();
    expect(await tcpOpen(redis.port)).toBe(false);
    await redis.start();
    expect(await withClient(redis.url, (r) => r.get('k'))).toBeNull();

    await redis.close();
    expect(await tcpOpen(redis.port)).toBe(false);
    expect(existsSync(redis.dir)).toBe(false);
  });

  it('with persist, keeps what was stored across stop and start; restartEmpty loses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'itp-redis-spec-'));
    dirs.push(dir);
    const redis = await LocalRedis.start({ dir, persist: true });
    opened.push(redis);
    await withClient(redis.url, (r) => r.set('kept', '1'));

    const firstPid = redis.pid;
    await redis.stop();
    await redis.start();
    expect(redis.pid).not.toBe(firstPid);
    expect(await withClient(redis.url, (r) => r.get('kept'))).toBe('1');

    await redis.restartEmpty();
    expect(await withClient(redis.url, (r) => r.get('kept'))).toBeNull();

    await redis.close();
    // A dir given by the caller stays.
    expect(existsSync(join(dir, 'redis.log'))).toBe(true);
  });

  it.each([
    ['without persistence', false],
    ['with persist (append-only file)', true],
  ])(
    'restore(snapshot) goes back in time %s: a key written before is back, one written after is gone',
    async (_label, persist) => {
      const dir = mkdtempSync(join(tmpdir(), 'itp-redis-spec-'));
      dirs.push(dir);
      const redis = await LocalRedis.start({ dir, persist });
      opened.push(redis);
      await withClient(redis.url, async (r) => {
        await r.set('before', 'old');
        await r.set('changed', 'old');
        await r.set('expires', 'x', 'PX', 60_000);
      });

      const snapshot = await redis.snapshot();
      expect(snapshot).toEqual({
        file: expect.stringContaining(dir),
        takenAt: expect.any(Number),
        keys: 3,
      });
      // The RDB is moved aside: a plain restart does not bring it back by itself.
      expect(existsSync(join(dir, 'dump.rdb'))).toBe(false);

      await withClient(redis.url, async (r) => {
        await r.set('after', 'new');
        await r.set('changed', 'new');
        await r.del('before');
      });
      const firstPid = redis.pid;
      await redis.restore(snapshot);
      expect(redis.pid).not.toBe(firstPid);
      expect(await tcpOpen(redis.port)).toBe(true);
      await withClient(redis.url, async (r) => {
        expect(await r.get('before')).toBe('old');
        expect(await r.get('changed')).toBe('old');
        expect(await r.get('after')).toBeNull();
        // A TTL is kept as the absolute time it had.
        expect(await r.pttl('expires')).toBeGreaterThan(0);
        await r.set('since-restore', '1');
      });

      // A stop and start afterwards: with persist the restored data (and what came since) stays;
      // without, Redis comes back empty as before (the snapshot is not loaded again by itself).
      await redis.stop();
      await redis.start();
      await withClient(redis.url, async (r) => {
        expect(await r.get('before')).toBe(persist ? 'old' : null);
        expect(await r.get('since-restore')).toBe(persist ? '1' : null);
      });

      // The same snapshot restores again (it is kept aside, not consumed).
      await redis.restore(snapshot);
      expect(await withClient(redis.url, (r) => r.mget('before', 'since-restore'))).toEqual([
        'old',
        null,
      ]);
    },
  );

  it('answers nothing while paused and catches up on resume', async () => {
    const redis = await LocalRedis.start();
    opened.push(redis);
    await withClient(redis.url, async (r) => {
      await r.ping();
      redis.pause();
      await expect(r.ping()).rejects.toThrow(/timed out/i);
      redis.resume();
      expect(await r.ping()).toBe('PONG');
    });
  });

  it('fails to start on a port another process holds, instead of reporting that one', async () => {
    // The start's probes it accepts are closed at once (holder.close() would leave them open).
    const holder = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      await expect(LocalRedis.start({ port })).rejects.toThrow(/address already in use/i);
    } finally {
      holder.close();
    }
  });
});
