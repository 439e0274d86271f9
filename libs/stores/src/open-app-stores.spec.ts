import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { sql, type Migration } from 'kysely';
import { pino } from 'pino';
import { ResourceScope } from '@itp/service-kit';
import { createTestDatabase, testRedisUrl, uniquePrefix, type TestDatabase } from '@itp/testing';
import { MemoryKvStore } from './kv/memory-kv-store.js';
import { RedisKvStore } from './kv/redis-kv-store.js';
import { openAppStores } from './open-app-stores.js';
import type { MigrationSet } from './sql/sql-database.js';

const logger = pino({ level: 'silent' });

function migrations(table: string, body?: Migration['up']): MigrationSet {
  return {
    tableName: `${table}_migrations`,
    migrations: {
      '0001_notes': {
        up:
          body ??
          (async (db) => {
            await db.schema
              .createTable(table)
              .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
              .execute();
          }),
      },
    },
  };
}

describe('openAppStores', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'app-stores-'));
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('in development: the in-process stand-in and <DATA_DIR>/<app>.sqlite, migrated', async () => {
    const scope = new ResourceScope(logger);
    const { kv, sql: db } = await openAppStores<{ dev_notes: { id: string } }>(
      { APP_ENV: 'development', DATA_DIR: dataDir },
      scope,
      logger,
      { app: 'notes-app', keyPrefix: 'notes:', migrations: migrations('dev_notes') },
    );
    expect(kv).toBeInstanceOf(MemoryKvStore);
    expect(db.dialect).toBe('sqlite');
    expect(existsSync(join(dataDir, 'notes-app.sqlite'))).toBe(true);
    await db.db.insertInto('dev_notes').values({ id: 'a' }).execute();
    expect(await db.db.selectFrom('dev_notes').selectAll().execute()).toEqual([{ id: 'a' }]);
    await scope.closeAll();
    await expect(db.ping()).rejects.toThrow();
  });

  it('elsewhere: Redis under the default prefix (or REDIS_KEY_PREFIX) and PostgreSQL, migrated', async () => {
    const prefix = uniquePrefix('app-stores');
    const raw = new Redis(testRedisUrl());
    const scope = new ResourceScope(logger);
    try {
      const { kv, sql: db } = await openAppStores<{ pg_notes: { id: string } }>(
        {
          APP_ENV: 'production',
          DATA_DIR: dataDir,
          REDIS_URL: testRedisUrl(),
          DATABASE_URL: database.url,
        },
        scope,
        logger,
        { app: 'notes-app', keyPrefix: prefix, migrations: migrations('pg_notes') },
      );
      expect(kv).toBeInstanceOf(RedisKvStore);
      expect(db.dialect).toBe('postgres');
      await kv.set('k', 'v');
      expect(await raw.get(`${prefix}k`)).toBe('v');
      await db.db.insertInto('pg_notes').values({ id: 'b' }).execute();
      expect((await db.db.selectFrom('pg_notes').selectAll().execute()).length).toBe(1);

      const other = new ResourceScope(logger);
      const overridden = await openAppStores(
        {
          APP_ENV: 'production',
          DATA_DIR: dataDir,
          REDIS_URL: testRedisUrl(),
          DATABASE_URL: database.url,
          REDIS_KEY_PREFIX: `${prefix}x:`,
        },
        other,
        logger,
        { app: 'notes-app', keyPrefix: prefix, migrations: migrations('pg_notes') },
      );
      await overridden.kv.set('k', 'w');
      expect(await raw.get(`${prefix}x:k`)).toBe('w');
      await other.closeAll();
    } finally {
      await scope.closeAll();
      await raw.del(`${prefix}k`, `${prefix}x:k`);
      raw.disconnect();
    }
  });

  it('a failing migration fails the start and leaves both stores in the scope to close', async () => {
    const scope = new ResourceScope(logger);
    const failing = migrations('broken_notes', async (db) => {
      await sql`SELECT no_such_column FROM no_such_table`.execute(db);
    });
    await expect(
      openAppStores({ APP_ENV: 'development', DATA_DIR: dataDir }, scope, logger, {
        app: 'broken-app',
        keyPrefix: 'b:',
        migrations: failing,
      }),
    ).rejects.toThrow(/Migration "0001_notes" \(broken_notes_migrations\) failed/);
    // Both were registered: closing the scope closes them (nothing is left open).
    await expect(scope.closeAll()).resolves.toBeUndefined();
  });
});
