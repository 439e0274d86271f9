import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { createTestDatabase, waitFor, type TestDatabase } from '@itp/testing';
import { openSqlDatabase } from './open-sql-database.js';
import { rejectionMessage } from './sql-database.contract.js';
import type { SqlDatabase } from './sql-database.js';

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

async function pragma(database: SqlDatabase<unknown>, name: string): Promise<unknown> {
  const result = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(
    database.db,
  );
  return Object.values(result.rows[0] ?? {})[0];
}

describe('openSqlDatabase', () => {
  it('refuses an unknown scheme with a clear error that does not echo the URL', () => {
    expect(() => openSqlDatabase('mysql://user:hunter2@db/app')).toThrow(
      'Unsupported database URL scheme "mysql:" (expected postgres://, postgresql:// or sqlite:)',
    );
    expect(() => openSqlDatabase('mysql://user:hunter2@db/app')).not.toThrow(/hunter2/);
    expect(() => openSqlDatabase('sqlite:')).toThrow('sqlite: URL without a file path');
  });

  describe('sqlite', () => {
    let dir: string;
    const opened: SqlDatabase<unknown>[] = [];
    const open = (url: string) => {
      const database = openSqlDatabase<unknown>(url);
      opened.push(database);
      return database;
    };

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'itp-sqlite-'));
    });

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((d) => d.close()));
      rmSync(dir, { recursive: true, force: true });
    });

    it('resolves a relative path against the working directory and creates its folder', async () => {
      const file = join(dir, 'nested', 'deeper', 'service.sqlite');
      const database = open(`sqlite:${relative(process.cwd(), file)}`);
      await database.ping();
      expect(database.dialect).toBe('sqlite');
      expect(existsSync(file)).toBe(true);
    });

    it('accepts sqlite:///absolute/path too', async () => {
      const file = join(dir, 'abs.sqlite');
      await open(`sqlite://${file}`).ping();
      expect(existsSync(file)).toBe(true);
    });

    it('turns on WAL, foreign keys and a busy timeout', async () => {
      const database = open(`sqlite:${join(dir, 'p.sqlite')}`);
      expect(await pragma(database, 'journal_mode')).toBe('wal');
      expect(await pragma(database, 'foreign_keys')).toBe(1);
      expect(await pragma(database, 'busy_timeout')).toBe(5000);
    });

    it('opens a private in-memory database for sqlite::memory:', async () => {
      const a = open('sqlite::memory:');
      const b = open('sqlite::memory:');
      await sql`create table t (id integer primary key)`.execute(a.db);
      expect(await rejectionMessage(sql`select * from t`.execute(b.db))).toMatch(/no such table/);
      expect(await pragma(a, 'foreign_keys')).toBe(1);
    });

    it('takes the write lock when a transaction begins (BEGIN IMMEDIATE)', async () => {
      const file = join(dir, 'lock.sqlite');
      const database = open(`sqlite:${file}`);
      await database.ping();
      const other = new Database(file, { timeout: 0 });
      try {
        await database.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          let message = '';
          try {
            other.exec('begin immediate');
          } catch (err) {
            message = String((err as Error).message);
          }
          expect(message).toMatch(/locked|busy/i);
        });
        other.exec('begin immediate');
        other.exec('rollback');
      } finally {
        other.close();
      }
    });

    it('close is idempotent, releases the file even when never queried, and later calls fail', async () => {
      const database = open(`sqlite:${join(dir, 'c.sqlite')}`);
      await database.close();
      await database.close();
      expect(await rejectionMessage(database.ping())).toMatch(/closed/);
      expect(await rejectionMessage(sql`select 1`.execute(database.db))).toMatch(/not open/);
    });
  });

  describe('postgres', () => {
    let testDb: TestDatabase;

    beforeEach(async () => {
      testDb = await createTestDatabase();
    });

    afterEach(async () => {
      await testDb.drop();
    });

    it('logs, and survives, an idle connection killed by the server', async () => {
      const { logger, lines } = captureLogger();
      const database = openSqlDatabase<unknown>(testDb.url, { logger, poolSize: 2 });
      try {
        expect(database.dialect).toBe('postgres');
        await database.ping();
        const admin = new pg.Client({ connectionString: testDb.url });
        await admin.connect();
        try {
          await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          );
        } finally {
          await admin.end();
        }
        await waitFor(() => lines.some((l) => l.level === 40), {
          what: 'a warning about the killed connection',
          timeoutMs: 5000,
        });
        expect(lines.some((l) => l.level === 40 && String(l.msg).includes('idle PostgreSQL'))).toBe(
          true,
        );
        await expect(database.ping()).resolves.toBeUndefined();
      } finally {
        await database.close();
      }
    });

    it('logs a failed query without its parameters', async () => {
      const { logger, lines } = captureLogger();
      const database = openSqlDatabase<unknown>(testDb.url, { logger });
      try {
        await expect(
          sql`select * from no_such_table where secret = ${'hunter2-secret'}`.execute(database.db),
        ).rejects.toThrow(/no_such_table/);
        const logged = JSON.stringify(lines);
        expect(logged).toContain('query failed');
        expect(logged).not.toContain('hunter2-secret');
      } finally {
        await database.close();
      }
    });

    it('close is idempotent and later calls fail, whether or not it was ever used', async () => {
      const used = openSqlDatabase<unknown>(testDb.url);
      await used.ping();
      await used.close();
      await used.close();
      await expect(used.ping()).rejects.toThrow();
      const unused = openSqlDatabase<unknown>(testDb.url);
      await unused.close();
      await expect(sql`select 1`.execute(unused.db)).rejects.toThrow();
    });
  });
});
