import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createTestDatabase, waitFor, type TestDatabase } from '@itp/testing';
import { openVeramoDataSource } from './veramo-data-source.js';

/**
 * `pg_ctl stop -m fast` terminates every session (57P01). typeorm's query runner drops its
 * 'error' listener on a client's first error, so a second 'error' of the same client (the
 * terminate message, then the socket's end) had no listener: did-service died of an uncaught
 * exception in the resilience suite's postgres-stop fault.
 */
describe('openVeramoDataSource: sessions terminated by the server', () => {
  let testDb: TestDatabase | undefined;
  let dataSource: DataSource | undefined;
  afterEach(async () => {
    await dataSource?.destroy().catch(() => undefined);
    await testDb?.drop();
    dataSource = undefined;
    testDb = undefined;
  });

  it('survives every connection being terminated mid-query, idle or in a transaction, and works again', async () => {
    testDb = await createTestDatabase();
    dataSource = await openVeramoDataSource(testDb.url, { poolSize: 6 });
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const ds = dataSource;
      const inFlight = Array.from({ length: 4 }, (_, i) =>
        i % 2
          ? ds.query('SELECT pg_sleep(5)').catch((err: unknown) => err)
          : ds
              .transaction((manager) => manager.query('SELECT pg_sleep(5)'))
              .catch((err: unknown) => err),
      );
      const admin = new pg.Client({ connectionString: testDb.url });
      await admin.connect();
      try {
        // All four are running their pg_sleep on the server.
        await waitFor(
          async () => {
            const { rows } = await admin.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query = 'SELECT pg_sleep(5)'",
            );
            return rows[0]!.n >= 4;
          },
          { what: 'four sessions in pg_sleep' },
        );
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
      } finally {
        await admin.end();
      }
      const failures = await Promise.all(inFlight);
      expect(failures.every((err) => err instanceof Error)).toBe(true);
      // A real duration, not a wait: the window in which a late second 'error' of a terminated
      // client (its socket's end) would surface as an uncaught exception.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(uncaught).toEqual([]);
      expect(await ds.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      // Every pooled client keeps an 'error' listener of its own, whoever has it checked out.
      const pool = (ds.driver as unknown as { master: pg.Pool }).master;
      const clients = (pool as unknown as { _clients: pg.PoolClient[] })._clients;
      expect(clients.length).toBeGreaterThan(0);
      for (const client of clients) expect(client.listenerCount('error')).toBeGreaterThanOrEqual(1);
      const held = await pool.connect();
      try {
        expect(held.listenerCount('error')).toBeGreaterThanOrEqual(1);
      } finally {
        held.release();
      }
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  }, 20_000);
});
