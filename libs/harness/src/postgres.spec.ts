import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { postgresUser, tcpOpen } from './processes.js';
import { LocalPostgres, postgresBinDir } from './postgres.js';

async function query(url: string, sql: string, connectionTimeoutMillis = 5000) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('LocalPostgres', () => {
  let db: LocalPostgres | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it('finds the binaries of PostgreSQL', () => {
    const dir = postgresBinDir();
    expect(dir).toBeDefined();
    expect(existsSync(`${dir}/pg_ctl`)).toBe(true);
  });

  it('keeps committed data across a fast stop and a start, and removes its temp dir on close', async () => {
    db = await LocalPostgres.start();
    expect(db.adminUrl).toBe(`postgres://postgres@127.0.0.1:${db.port}/postgres`);
    const pid = db.pid;
    expect(pid).toEqual(expect.any(Number));
    // As root, the server runs as the `postgres` user.
    const user = postgresUser();
    if (user) {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      expect(status).toMatch(new RegExp(`^Uid:\\s+${user.uid}\\b`, 'm'));
    }
    const settings = await query(
      db.adminUrl,
      "select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes', 'max_connections', 'listen_addresses') order by name",
    );
    expect(Object.fromEntries(settings.rows.map((r) => [r.name, r.setting]))).toEqual({
      fsync: 'off',
      full_page_writes: 'off',
      listen_addresses: '127.0.0.1',
      max_connections: '300',
      synchronous_commit: 'off',
    });

    const url = await db.createDatabase();
    expect(new URL(url).pathname).toMatch(/^\/itp_[0-9a-f]{12}$/);
    await query(url, "create table t (v text); insert into t values ('kept')");

    await db.stop();
    expect(db.pid).toBeUndefined();
    expect(await tcpOpen(db.port)).toBe(false);
    await db.start();
    expect(db.pid).not.toBe(pid);
    expect((await query(url, 'select v from t')).rows).toEqual([{ v: 'kept' }]);
    expect(await db.createDatabase('named_db')).toBe(
      `postgres://postgres@127.0.0.1:${db.port}/named_db`,
    );

    const dir = db.dir;
    await db.close();
    db = undefined;
    expect(existsSync(dir)).toBe(false);
  });

  it('takes no new connection while paused, and does again on resume', async () => {
    db = await LocalPostgres.start();
    db.pause();
    await expect(query(db.adminUrl, 'select 1', 1000)).rejects.toThrow(/timeout/i);
    db.resume();
    expect((await query(db.adminUrl, 'select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
