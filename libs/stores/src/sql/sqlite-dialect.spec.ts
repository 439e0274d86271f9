import { describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { PortableSqliteDialect, withStatementCache } from './sqlite-dialect.js';

interface Tables {
  items: { id: number; name: string };
}

describe('withStatementCache (embedded SQLite)', () => {
  it('prepares each SQL text once, and answers from the live data every time', async () => {
    const database = new Database(':memory:');
    let prepared = 0;
    const counting = {
      close: () => database.close(),
      prepare: (text: string) => {
        prepared += 1;
        return database.prepare(text);
      },
    };
    const db = new Kysely<Tables>({
      dialect: new PortableSqliteDialect({ database: withStatementCache(counting) }),
    });
    try {
      await sql`create table items (id integer primary key, name text not null)`.execute(db);
      for (let id = 1; id <= 5; id++) {
        await db
          .insertInto('items')
          .values({ id, name: `n${id}` })
          .execute();
        const rows = await db.selectFrom('items').select('name').where('id', '<=', id).execute();
        expect(rows).toHaveLength(id);
      }
      // create + one insert + one select, each prepared once for all five rounds.
      expect(prepared).toBe(3);
      // A schema change after the statements were cached: SQLite re-prepares them itself.
      await sql`alter table items add column note text`.execute(db);
      await db.insertInto('items').values({ id: 6, name: 'n6' }).execute();
      expect(
        await db.selectFrom('items').select('name').where('id', '<=', 6).execute(),
      ).toHaveLength(6);
    } finally {
      await db.destroy();
    }
  });

  it('keeps at most `max` statements, dropping the oldest', () => {
    const database = new Database(':memory:');
    let prepared = 0;
    const cache = withStatementCache(
      { close: () => database.close(), prepare: (text) => (prepared++, database.prepare(text)) },
      2,
    );
    cache.prepare('select 1');
    cache.prepare('select 2');
    cache.prepare('select 3'); // drops "select 1"
    cache.prepare('select 2');
    cache.prepare('select 1');
    expect(prepared).toBe(4);
    cache.close();
  });
});
