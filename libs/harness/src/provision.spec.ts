import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Redis } from 'ioredis';
import { tcpOpen } from './processes.js';
import {
  provisionChain,
  provisionInfra,
  provisionPostgres,
  provisionRedis,
  type Provisioned,
} from './provision.js';

const NAMES = ['REDIS_URL', 'DATABASE_URL', 'ETH_RPC_URL', 'PATH'] as const;

describe('provision', () => {
  let saved: Record<string, string | undefined>;
  const provisioned: Provisioned[] = [];
  beforeEach(() => {
    saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
    for (const n of ['REDIS_URL', 'DATABASE_URL', 'ETH_RPC_URL']) delete process.env[n];
  });
  afterEach(async () => {
    for (const [n, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
    for (const p of provisioned.splice(0)) await p.stop();
  });

  it('takes REDIS_URL / DATABASE_URL / ETH_RPC_URL as they are when all are set', async () => {
    process.env.REDIS_URL = 'redis://redis.example:6379';
    process.env.DATABASE_URL = 'postgres://u@db.example:5432/x';
    process.env.ETH_RPC_URL = 'http://chain.example:8545';
    const infra = await provisionInfra();
    expect(infra.redis).toMatchObject({ url: 'redis://redis.example:6379', source: 'env' });
    expect(infra.database).toMatchObject({ url: 'postgres://u@db.example:5432/x', source: 'env' });
    expect(infra.chain).toMatchObject({ url: 'http://chain.example:8545', source: 'env' });
    await Promise.all([infra.redis.stop(), infra.database.stop(), infra.chain.stop()]);
  });

  it('without a URL or a Docker engine, starts the local binaries, and stop() ends them', async () => {
    const [redis, database, chain] = await Promise.all([
      provisionRedis(false),
      provisionPostgres(false),
      provisionChain(false),
    ]);
    provisioned.push(redis, database, chain);
    expect([redis.source, database.source, chain.source]).toEqual(['local', 'local', 'local']);

    const r = new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    expect(await r.ping()).toBe('PONG');
    r.disconnect();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.end();
    const res = await fetch(chain.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect(((await res.json()) as { result: string }).result).toBe('0x7a69');

    for (const p of provisioned.splice(0)) await p.stop();
    for (const url of [redis.url, database.url, chain.url])
      expect(await tcpOpen(Number(new URL(url).port))).toBe(false);
  });

  it('says how to provide Redis when there is none', async () => {
    process.env.PATH = '/nonexistent';
    const outcome = await provisionRedis(false).then(
      async (redis) => {
        await redis.stop();
        return `provisioned ${redis.url}`;
      },
      (err: Error) => err.message,
    );
    expect(outcome).toContain(
      'No Redis for the tests: set REDIS_URL, start a Docker engine, or install redis-server',
    );
  });
});
