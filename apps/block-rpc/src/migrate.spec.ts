/**
 * block-rpc's migration entry as the Job runs it (its own process, DATABASE_URL only): on a
 * fresh database it applies every migration of the service, a second run finds none
 * pending, and without DATABASE_URL it exits 2.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { BLOCK_RPC_MIGRATION_TABLE, blockRpcMigrations } from './db/migrations.js';

const entry = fileURLToPath(new URL('./migrate.ts', import.meta.url));

function runEntry(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  child.stderr.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, output: Buffer.concat(chunks).toString('utf8') })),
  );
}

/** The `name` column of every row the query returns, sorted. */
async function names(url: string, text: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ name: string }>(text)).rows.map((row) => row.name).sort();
  } finally {
    await client.end();
  }
}

describe('block-rpc migrate entry (src/migrate.ts)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('without DATABASE_URL exits 2', async () => {
    expect(await runEntry({})).toEqual({
      code: 2,
      output: 'block-rpc migrate: DATABASE_URL is required\n',
    });
  });

  it('applies every migration to a fresh database, then finds none pending', async () => {
    const recorded = () => names(db.url, `SELECT name FROM ${BLOCK_RPC_MIGRATION_TABLE}`);
    const all = Object.keys(blockRpcMigrations).sort();
    const applied = { code: 0, output: 'block-rpc: migrations applied\n' };
    expect(await runEntry({ DATABASE_URL: db.url })).toEqual(applied);
    expect(await recorded()).toEqual(all);
    expect(await runEntry({ DATABASE_URL: db.url })).toEqual(applied);
    expect(await recorded()).toEqual(all);
  });
});
