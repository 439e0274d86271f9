import type { AdapterPayload } from 'oidc-provider';
import type { SqlDatabase } from '@itp/stores';
import type { OidcDurableRecord, OidcDurableRecords } from '../oidc/kv-oidc-adapter.js';
import type { AuthDatabase } from './database.js';
import { storeCall } from './store-call.js';

/** How many expired records one save drops at most (cleanup a few at a time). */
const DROP_BATCH = 100;

/**
 * The durable copies of OpenID Connect records (`auth_oidc_records`): refresh tokens under their
 * SHA-256 and without the token, and the grants with offline_access. Read only when Redis lacks a
 * record; removed when a token is used or ended, dropped a few at a time once expired.
 */
export class SqlOidcRecords implements OidcDurableRecords {
  constructor(private readonly database: SqlDatabase<AuthDatabase>) {}

  async save(model: string, id: string, record: OidcDurableRecord, now: number): Promise<void> {
    return storeCall(async () => {
      await this.dropExpired(now);
      await this.write(model, id, record);
    });
  }

  /** save's insert-or-replace alone, without its sweep of expired copies (the caller sweeps). */
  async write(model: string, id: string, record: OidcDurableRecord): Promise<void> {
    const row = {
      model,
      id,
      grant_id: record.grantId ?? null,
      account_id: record.accountId ?? null,
      payload: JSON.stringify(record.payload),
      expires_at: record.expiresAt,
    };
    await this.database.db
      .insertInto('auth_oidc_records')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['model', 'id']).doUpdateSet({
          grant_id: row.grant_id,
          account_id: row.account_id,
          payload: row.payload,
          expires_at: row.expires_at,
        }),
      )
      .execute();
  }

  async find(model: string, id: string, now: number): Promise<AdapterPayload | undefined> {
    return storeCall(async () => {
      const row = await this.database.db
        .selectFrom('auth_oidc_records')
        .select('payload')
        .where('model', '=', model)
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row && (JSON.parse(row.payload) as AdapterPayload);
    });
  }

  /** The ids of `accountId`'s durable grants (offline_access) not expired at `now`. */
  async grantIdsOf(accountId: string, now: number): Promise<string[]> {
    return storeCall(async () => {
      const rows = await this.database.db
        .selectFrom('auth_oidc_records')
        .select('id')
        .where('model', '=', 'Grant')
        .where('account_id', '=', accountId)
        .where('expires_at', '>', now)
        .execute();
      return rows.map((row) => row.id);
    });
  }

  async remove(model: string, id: string): Promise<void> {
    return storeCall(async () => {
      await this.database.db
        .deleteFrom('auth_oidc_records')
        .where('model', '=', model)
        .where('id', '=', id)
        .execute();
    });
  }

  async removeByGrant(
    grantId: string,
  ): Promise<Array<{ model: string; id: string; expiresAt: number }>> {
    return storeCall(async () => {
      const removed = await this.database.db
        .deleteFrom('auth_oidc_records')
        .where('grant_id', '=', grantId)
        .returning(['model', 'id', 'expires_at'])
        .execute();
      return removed.map((row) => ({
        model: row.model,
        id: row.id,
        expiresAt: Number(row.expires_at),
      }));
    });
  }

  /** Drops up to DROP_BATCH copies expired at `now` (save does before each write). */
  async dropExpired(now: number): Promise<void> {
    await this.database.db
      .deleteFrom('auth_oidc_records')
      .where((eb) =>
        eb(
          eb.refTuple('model', 'id'),
          'in',
          eb
            .selectFrom('auth_oidc_records')
            .select(['model', 'id'])
            .where('expires_at', '<=', now)
            .limit(DROP_BATCH)
            .$asTuple('model', 'id'),
        ),
      )
      .execute();
  }
}
