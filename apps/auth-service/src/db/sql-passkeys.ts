import type { Selectable } from 'kysely';
import type { SqlDatabase } from '@itp/stores';
import type { AuthDatabase, AuthPasskeysTable } from './database.js';
import type { Passkey } from '../passkeys/passkey.js';
import type { PasskeyRepository } from '../passkeys/passkey-repository.js';

function toPasskey(row: Selectable<AuthPasskeysTable>): Passkey {
  const transports: unknown = JSON.parse(row.transports);
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: Array.isArray(transports)
      ? transports.filter((t): t is string => typeof t === 'string')
      : [],
    deviceType: row.device_type === 'multiDevice' ? 'multiDevice' : 'singleDevice',
    backedUp: Number(row.backed_up) === 1,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

/** PasskeyRepository over Kysely (PostgreSQL or SQLite). */
export class SqlPasskeys implements PasskeyRepository {
  constructor(private readonly database: SqlDatabase<AuthDatabase>) {}

  async findById(id: string): Promise<Passkey | undefined> {
    const row = await this.database.db
      .selectFrom('auth_passkeys')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toPasskey(row) : undefined;
  }

  async listByUser(userId: string): Promise<Passkey[]> {
    const rows = await this.database.db
      .selectFrom('auth_passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toPasskey);
  }

  async insertIfAbsent(passkey: Passkey): Promise<boolean> {
    const result = await this.database.db
      .insertInto('auth_passkeys')
      .values({
        id: passkey.id,
        user_id: passkey.userId,
        name: passkey.name,
        public_key: passkey.publicKey,
        counter: passkey.counter,
        transports: JSON.stringify(passkey.transports),
        device_type: passkey.deviceType,
        backed_up: passkey.backedUp ? 1 : 0,
        created_at: passkey.createdAt,
        last_used_at: passkey.lastUsedAt,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async recordUse(id: string, seenCounter: number, newCounter: number, now: number) {
    const result = await this.database.db
      .updateTable('auth_passkeys')
      .set({ counter: newCounter, last_used_at: now })
      .where('id', '=', id)
      .where('counter', '=', seenCounter)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const result = await this.database.db
      .deleteFrom('auth_passkeys')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async removeAllOf(userId: string): Promise<number> {
    const result = await this.database.db
      .deleteFrom('auth_passkeys')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
