import { sql } from 'kysely';
import { oneTimeMarkId, type OneTimeMarks, type SqlDatabase } from '@itp/stores';
import type { AuthDatabase } from '../db/database.js';
import { SqlOidcRecords } from '../db/sql-oidc-records.js';
import { storeCall } from '../db/store-call.js';
import type { OidcDurableRecord, OidcDurableRecords } from './kv-oidc-adapter.js';

/**
 * How long a mark is kept past its expiry: SqlOneTimeMarks' default, which the other writers of
 * `auth_one_time_marks` (wire-shared) use — the same rule for every row of the table.
 */
const GRACE_MS = 3_600_000;
/** Expired rows are dropped once every this many writes, at most this many at a time. */
const SWEEP_EVERY = 32;
const SWEEP_BATCH = 100;

/**
 * The adapter's SQL statements (docs/adr/0037): the one-time marks of codes and refresh tokens in
 * `auth_one_time_marks` (the rows SqlOneTimeMarks writes: the SHA-256 of the namespaced key, kept
 * until expiry + an hour; an INSERT … ON CONFLICT decides, of any number of uses, one) and the
 * durable copies of `auth_oidc_records`, with two differences that make a grant cheaper, not
 * weaker:
 * - **expired rows are dropped once every SWEEP_EVERY writes** (up to SWEEP_BATCH rows, more
 *   than the writes in between can have added), not before every write: a row past its expiry
 *   counts as absent whether or not it was dropped yet;
 * - **a use takes its mark and drops the token's durable copy in one statement on PostgreSQL**
 *   (a data-modifying WITH: the copy goes only when the mark was taken), one round trip instead of
 *   two; on SQLite (in process, no round trip) the two statements run in turn.
 */
export class OidcSqlStatements {
  private writes = 0;
  private readonly durable: SqlOidcRecords;
  private readonly sweepEvery: number;

  constructor(
    private readonly database: SqlDatabase<AuthDatabase>,
    options: { sweepEvery?: number } = {},
  ) {
    this.durable = new SqlOidcRecords(database);
    this.sweepEvery = options.sweepEvery ?? SWEEP_EVERY;
  }

  /** The marks of the adapter's keys (OneTimeMarks). */
  readonly marks: OneTimeMarks = {
    mark: (key, expiresAt, now) => this.useOnce(key, expiresAt, now),
    isMarked: (key, now) =>
      storeCall(async () => {
        const row = await this.database.db
          .selectFrom('auth_one_time_marks')
          .select('id_hash')
          .where('id_hash', '=', oneTimeMarkId(key))
          .where('expires_at', '>=', now - GRACE_MS)
          .executeTakeFirst();
        return row !== undefined;
      }),
  };

  /** The durable copies (OidcDurableRecords); saving one no longer sweeps every time. */
  readonly records: OidcDurableRecords = {
    save: (model, id, record, now) => this.save(model, id, record, now),
    find: (model, id, now) => this.durable.find(model, id, now),
    remove: (model, id) => this.durable.remove(model, id),
    removeByGrant: (grantId) => this.durable.removeByGrant(grantId),
  };

  /** The ids of an account's durable grants (OidcAccountGrants' DurableGrants). */
  grantIdsOf(accountId: string, now: number): Promise<string[]> {
    return this.durable.grantIdsOf(accountId, now);
  }

  /**
   * Marks `key` (true only for its first mark, as OneTimeMarks.mark) and, when the mark was taken
   * and `copy` is given, removes that durable copy: a used refresh token needs none.
   */
  async useOnce(
    key: string,
    expiresAt: number,
    now: number,
    copy?: { model: string; id: string },
  ): Promise<boolean> {
    const cutoff = now - GRACE_MS;
    return storeCall(async () => {
      await this.sweepNow(now);
      const idHash = oneTimeMarkId(key);
      if (copy && this.database.dialect === 'postgres') {
        const { rows } = await sql<{ marked: number }>`
          with m as (
            insert into auth_one_time_marks (id_hash, expires_at) values (${idHash}, ${expiresAt})
            on conflict (id_hash) do update set expires_at = excluded.expires_at
            where auth_one_time_marks.expires_at < ${cutoff}
            returning 1
          ), d as (
            delete from auth_oidc_records
            where model = ${copy.model} and id = ${copy.id} and exists (select 1 from m)
          )
          select count(*)::int as marked from m`.execute(this.database.db);
        return Number(rows[0]?.marked ?? 0) === 1;
      }
      const result = await this.database.db
        .insertInto('auth_one_time_marks')
        .values({ id_hash: idHash, expires_at: expiresAt })
        .onConflict((oc) =>
          oc
            .column('id_hash')
            .doUpdateSet((eb) => ({ expires_at: eb.ref('excluded.expires_at') }))
            // Only a mark that is no longer kept is taken again.
            .where('auth_one_time_marks.expires_at', '<', cutoff),
        )
        .executeTakeFirst();
      const marked = Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
      if (marked && copy) {
        await this.database.db
          .deleteFrom('auth_oidc_records')
          .where('model', '=', copy.model)
          .where('id', '=', copy.id)
          .execute();
      }
      return marked;
    });
  }

  private async save(
    model: string,
    id: string,
    record: OidcDurableRecord,
    now: number,
  ): Promise<void> {
    return storeCall(async () => {
      await this.sweepNow(now);
      await this.durable.write(model, id, record);
    });
  }

  /** Every sweepEvery-th write drops a batch of expired marks and durable copies. */
  private async sweepNow(now: number): Promise<void> {
    // The first write sweeps, then every sweepEvery-th.
    const turn = this.writes;
    this.writes = (this.writes + 1) % this.sweepEvery;
    if (turn !== 0) return;
    const db = this.database.db;
    await db
      .deleteFrom('auth_one_time_marks')
      .where('id_hash', 'in', (eb) =>
        eb
          .selectFrom('auth_one_time_marks')
          .select('id_hash')
          .where('expires_at', '<', now - GRACE_MS)
          .limit(SWEEP_BATCH),
      )
      .execute();
    await this.durable.dropExpired(now);
  }
}
