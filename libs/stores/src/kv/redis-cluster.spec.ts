/**
 * RedisKvStore on a real Redis Cluster (REDIS_CLUSTER_NODES): three primaries from Debian's
 * redis-server (`--cluster-enabled yes`) joined with `redis-cli --cluster create`, then the same
 * contract suite as standalone Redis. Every KvStore operation is single-key (redis-topology.ts),
 * so none fails with CROSSSLOT whichever slots the keys hash to.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnGuarded } from '@itp/harness';
import { freePort, uniquePrefix, waitFor } from '@itp/testing';
import { kvStoreContract } from './kv-store.contract.js';
import { RedisKvStore } from './redis-kv-store.js';
import { redisTopologyOf } from './redis-topology.js';

const run = promisify(execFile);
const servers: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'itp-redis-cluster-'));
let nodes = '';

async function startNode(port: number): Promise<void> {
  // Through the harness: the reaper stops it should this worker be killed before afterAll.
  const child = spawnGuarded(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(dir, `nodes-${port}.conf`),
      '--cluster-node-timeout',
      '2000',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { label: `redis-server ${port} (cluster node)`, stdio: 'ignore' },
  );
  servers.push(child);
  await waitFor(() => run('redis-cli', ['-p', String(port), 'ping']).then(() => true), {
    what: `redis-server on port ${port}`,
  });
}

beforeAll(async () => {
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  await Promise.all(ports.map(startNode));
  nodes = ports.map((port) => `127.0.0.1:${port}`).join(',');
  await run('redis-cli', ['--cluster', 'create', ...nodes.split(','), '--cluster-yes']);
  await waitFor(
    async () =>
      (await run('redis-cli', ['-p', String(ports[0]), 'cluster', 'info'])).stdout.includes(
        'cluster_state:ok',
      ),
    { what: 'the cluster to become ok', timeoutMs: 15_000 },
  );
}, 40_000);

afterAll(async () => {
  await Promise.all(
    servers.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  rmSync(dir, { recursive: true, force: true });
});

const open = (): RedisKvStore =>
  new RedisKvStore({
    url: 'redis://127.0.0.1:6379', // credentials only: the nodes come from the topology
    topology: redisTopologyOf({ REDIS_CLUSTER_NODES: nodes }),
    keyPrefix: uniquePrefix('kv-cluster'),
  });

kvStoreContract('redis cluster', async () => open());

describe('RedisKvStore on Redis Cluster', () => {
  it('serves keys of every slot range from one store (no CROSSSLOT, no MOVED surfacing)', async () => {
    const store = open();
    try {
      const keys = Array.from({ length: 30 }, (_, i) => `login-request:${i}`);
      await Promise.all(keys.map((key, i) => store.set(key, String(i), { ttlMs: 60_000 })));
      expect(await Promise.all(keys.map((key) => store.get(key)))).toEqual(
        keys.map((_, i) => `${i}`),
      );
      expect(await Promise.all(keys.map((key) => store.incr(`${key}:n`)))).toEqual(
        keys.map(() => 1),
      );
      expect(await store.compareAndSwap(keys[0] as string, '0', 'zero')).toBe(true);
      expect(await store.getDel(keys[0] as string)).toBe('zero');
      await store.ping();
    } finally {
      await store.close();
    }
  });
});
