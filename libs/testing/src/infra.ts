/**
 * Test infrastructure, resolved once per jest run (global-setup.ts), in the order DEVELOPERS.md sets:
 *   1. REDIS_URL / DATABASE_URL / ETH_RPC_URL when set;
 *   2. testcontainers, where a Docker engine answers;
 *   3. the local binaries (redis-server, PostgreSQL's initdb/postgres, anvil from npm) on free ports;
 *   4. otherwise fail with a message that says how to provide one.
 * The resolved URLs are handed to test workers as ITP_TEST_* environment variables.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startAnvil } from '@itp/dev-chain';
import { postgresUser, stopChild, tcpOpen, waitForPostgresQueries, waitUntil } from '@itp/harness';

export const TEST_ENV = {
  redis: 'ITP_TEST_REDIS_URL',
  database: 'ITP_TEST_DATABASE_URL',
  chain: 'ITP_TEST_ETH_RPC_URL',
} as const;

export interface Provisioned {
  url: string;
  source: 'env' | 'testcontainers' | 'local';
  stop: () => Promise<void>;
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

function which(bin: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : undefined;
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
  const bin = which('redis-server');
  if (!bin) {
    throw new Error(
      'No Redis for the tests: set REDIS_URL, start a Docker engine, or install redis-server (apt-get install redis-server).',
    );
  }
  const port = await freePort();
  const child = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await waitUntil(() => tcpOpen(port), 'redis-server');
  return { url: `redis://127.0.0.1:${port}`, source: 'local', stop: () => stopChild(child) };
}

function postgresBinDir(): string | undefined {
  const onPath = which('initdb');
  if (onPath) return join(onPath, '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const dir = join(root, v, 'bin');
    if (existsSync(join(dir, 'initdb'))) return dir;
  }
  return undefined;
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
  const binDir = postgresBinDir();
  if (!binDir) {
    throw new Error(
      'No PostgreSQL for the tests: set DATABASE_URL, start a Docker engine, or install PostgreSQL (apt-get install postgresql).',
    );
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'itp-pg-'));
  const port = await freePort();
  // PostgreSQL refuses to run as root: run it as the `postgres` system user when we are root.
  const user = postgresUser();
  if (user) chownSync(dataDir, user.uid, user.gid);
  const init = spawnSync(
    join(binDir, 'initdb'),
    ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'],
    {
      encoding: 'utf8',
      ...(user ?? {}),
    },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const child = spawn(
    join(binDir, 'postgres'),
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      dataDir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
    ],
    { stdio: 'ignore', ...(user ?? {}) },
  );
  await waitUntil(() => tcpOpen(port), 'postgres start');
  await waitForPostgresQueries(`postgres://postgres@127.0.0.1:${port}/postgres`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    source: 'local',
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
  const anvil = await startAnvil({ port: await freePort() }).catch((err: unknown) => {
    throw new Error(
      `No dev chain for the tests: set ETH_RPC_URL, start a Docker engine, or run npm ci so that @foundry-rs/anvil is installed (${String(err)}).`,
    );
  });
  return { url: anvil.url, source: 'local', stop: anvil.stop };
}

export interface Infra {
  redis: Provisioned;
  database: Provisioned;
  chain: Provisioned;
}

export async function provisionInfra(): Promise<Infra> {
  const docker =
    !process.env.REDIS_URL || !process.env.DATABASE_URL || !process.env.ETH_RPC_URL
      ? await dockerAnswers()
      : false;
  const [redis, database, chain] = await Promise.all([
    provisionRedis(docker),
    provisionPostgres(docker),
    provisionChain(docker),
  ]);
  log(
    `redis ${redis.source} ${redis.url}; postgres ${database.source}; chain ${chain.source} ${chain.url}`,
  );
  return { redis, database, chain };
}
