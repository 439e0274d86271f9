/**
 * Redis, PostgreSQL and a dev chain for a test run (jest's global setup), in the order
 * DEVELOPERS.md sets:
 *   1. REDIS_URL / DATABASE_URL / ETH_RPC_URL when set;
 *   2. testcontainers, where a Docker engine answers (their own reaper removes the containers of
 *      a killed run);
 *   3. the local binaries (redis-server, PostgreSQL's initdb/pg_ctl, anvil from npm) on free
 *      ports, through LocalRedis / LocalPostgres / LocalChain (guarded by the reaper);
 *   4. otherwise fail with a message that says how to provide one.
 */
import { LocalChain } from './chain.js';
import { LocalPostgres, postgresBinDir } from './postgres.js';
import { LocalRedis, redisServerPath } from './redis.js';

export interface Provisioned {
  url: string;
  source: 'env' | 'testcontainers' | 'local';
  stop: () => Promise<void>;
}

export interface Infra {
  redis: Provisioned;
  database: Provisioned;
  chain: Provisioned;
}

const noop = async () => undefined;

function log(message: string): void {
  process.stderr.write(`[test-infra] ${message}\n`);
}

async function dockerAnswers(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

export async function provisionRedis(docker: boolean): Promise<Provisioned> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, source: 'env', stop: noop };
  if (docker) {
    const { GenericContainer } = await import('testcontainers');
    const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    return {
      url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`,
      source: 'testcontainers',
      stop: async () => void (await container.stop()),
    };
  }
  if (!redisServerPath()) {
    throw new Error(
      'No Redis for the tests: set REDIS_URL, start a Docker engine, or install redis-server (apt-get install redis-server).',
    );
  }
  const redis = await LocalRedis.start();
  return { url: redis.url, source: 'local', stop: () => redis.close() };
}

export async function provisionPostgres(docker: boolean): Promise<Provisioned> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, source: 'env', stop: noop };
  if (docker) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:16-alpine').start();
    return {
      url: container.getConnectionUri(),
      source: 'testcontainers',
      stop: async () => void (await container.stop()),
    };
  }
  if (!postgresBinDir()) {
    throw new Error(
      'No PostgreSQL for the tests: set DATABASE_URL, start a Docker engine, or install PostgreSQL (apt-get install postgresql).',
    );
  }
  const postgres = await LocalPostgres.start();
  return { url: postgres.adminUrl, source: 'local', stop: () => postgres.close() };
}

export async function provisionChain(docker: boolean): Promise<Provisioned> {
  if (process.env.ETH_RPC_URL) return { url: process.env.ETH_RPC_URL, source: 'env', stop: noop };
  if (docker) {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer('ghcr.io/foundry-rs/foundry:latest')
      .withEntrypoint(['anvil'])
      .withCommand(['--host', '0.0.0.0'])
      .withExposedPorts(8545)
      .withWaitStrategy(Wait.forListeningPorts())
      .start();
    return {
      url: `http://${container.getHost()}:${container.getMappedPort(8545)}`,
      source: 'testcontainers',
      stop: async () => void (await container.stop()),
    };
  }
  const chain = await LocalChain.start().catch((err: unknown) => {
    throw new Error(
      `No dev chain for the tests: set ETH_RPC_URL, start a Docker engine, or run npm ci so that @foundry-rs/anvil is installed (${String(err)}).`,
    );
  });
  return { url: chain.url, source: 'local', stop: () => chain.close() };
}

export async function provisionInfra(): Promise<Infra> {
  const docker =
    !process.env.REDIS_URL || !process.env.DATABASE_URL || !process.env.ETH_RPC_URL
      ? await dockerAnswers()
      : false;
  const settled = await Promise.allSettled([
    provisionRedis(docker),
    provisionPostgres(docker),
    provisionChain(docker),
  ]);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    // What did start is stopped again before the failure is reported.
    for (const s of settled) if (s.status === 'fulfilled') await s.value.stop().catch(noop);
    throw failed.reason;
  }
  const [redis, database, chain] = settled.map(
    (s) => (s as PromiseFulfilledResult<Provisioned>).value,
  ) as [Provisioned, Provisioned, Provisioned];
  log(
    `redis ${redis.source} ${redis.url}; postgres ${database.source}; chain ${chain.source} ${chain.url}`,
  );
  return { redis, database, chain };
}
