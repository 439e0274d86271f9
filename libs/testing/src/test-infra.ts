import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The environment variables jest's global setup (global-setup.ts) hands the resolved
 * infrastructure URLs to the test workers in.
 */
export const TEST_ENV = {
  redis: 'ITP_TEST_REDIS_URL',
  database: 'ITP_TEST_DATABASE_URL',
  chain: 'ITP_TEST_ETH_RPC_URL',
} as const;

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: run the tests through jest (its global setup provides it)`,
    );
  return value;
}

export const testRedisUrl = (): string => required(TEST_ENV.redis);
export const testChainUrl = (): string => required(TEST_ENV.chain);
export const testAdminDatabaseUrl = (): string => required(TEST_ENV.database);

/** A unique key prefix so that test files sharing one Redis never see each other's keys. */
export function uniquePrefix(label = 't'): string {
  return `${label}:${randomBytes(6).toString('hex')}:`;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database on the test server; `drop()` removes it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = new URL(testAdminDatabaseUrl());
  const name = `itp_t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
