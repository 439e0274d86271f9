import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REPO_ROOT, bundleEntry, type EntryBundle } from '@itp/harness';
import { createTestDatabase, type TestDatabase } from './test-infra.js';

/** A migration table of the app and the names every migration of it records there. */
export interface MigrationTable {
  /** `schema.table` or `table`. */
  table: string;
  /** Every migration's name; `count` alone when the names are another library's. */
  names?: readonly string[];
  count?: number;
}

export interface MigrateEntrySuite {
  app: string;
  /** `new URL('./migrate.ts', import.meta.url)` of the app's spec. */
  entry: URL;
  tables: readonly MigrationTable[];
}

/** The entry's bundle run with plain node, as the image's `dist/migrate.js`. */
function runEntry(bundle: EntryBundle, env: Record<string, string>) {
  const child = spawn(process.execPath, [bundle.file], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  child.stderr.on('data', (c: Buffer) => chunks.push(c));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output: Buffer.concat(chunks).toString('utf8') })),
  );
}

/** What each table records: its migration names, or their number where only a count is given. */
async function recorded(url: string, tables: readonly MigrationTable[]): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out: unknown[] = [];
    for (const t of tables) {
      const rows = (await client.query<{ name: string }>(`SELECT name FROM ${t.table}`)).rows;
      const names = rows.map((row) => row.name).sort();
      out.push(t.names ? names : names.length);
    }
    return out;
  } finally {
    await client.end();
  }
}

/**
 * How long one run of an entry may take: a process that loads the app's migration imports (a
 * second or two alone, much longer on a busy 2-core machine).
 */
const ENTRY_TIMEOUT_MS = 90_000;

/**
 * An app's migration entry (`apps/<app>/src/migrate.ts`) as the Kubernetes Job runs it: bundled
 * with esbuild (as the image's `dist/migrate.js`, npm packages left external) and run as its own
 * plain-node process with DATABASE_URL only. On a fresh database it applies every migration, a
 * second run finds none pending, and without DATABASE_URL it exits 2. The bundle is built once
 * for the three runs (three tsx processes each compiled the same imports again: ~8 s a run on a
 * busy CI machine).
 */
export function describeMigrateEntry({ app, entry, tables }: MigrateEntrySuite): void {
  describe(`${app} migrate entry (src/migrate.ts)`, () => {
    let db: TestDatabase;
    let bundle: EntryBundle;
    beforeAll(async () => {
      [db, bundle] = await Promise.all([
        createTestDatabase(),
        bundleEntry(REPO_ROOT, fileURLToPath(entry)),
      ]);
    }, ENTRY_TIMEOUT_MS);
    afterAll(async () => {
      bundle?.remove();
      await db?.drop();
    });

    it(
      'without DATABASE_URL exits 2',
      async () => {
        expect(await runEntry(bundle, {})).toEqual({
          code: 2,
          output: `${app} migrate: DATABASE_URL is required\n`,
        });
      },
      ENTRY_TIMEOUT_MS,
    );

    it(
      'applies every migration to a fresh database, then finds none pending',
      async () => {
        const all = tables.map((t) => (t.names ? [...t.names].sort() : t.count));
        const applied = { code: 0, output: `${app}: migrations applied\n` };
        expect(await runEntry(bundle, { DATABASE_URL: db.url })).toEqual(applied);
        expect(await recorded(db.url, tables)).toEqual(all);
        expect(await runEntry(bundle, { DATABASE_URL: db.url })).toEqual(applied);
        expect(await recorded(db.url, tables)).toEqual(all);
      },
      2 * ENTRY_TIMEOUT_MS,
    );
  });
}
