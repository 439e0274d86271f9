import { sql, type Selectable } from 'kysely';
import { nextTokensValidAfter } from '@itp/auth-jwt';
import type { SqlDatabase } from '@itp/stores';
import type { AuthDatabase, AuthUsersTable } from './database.js';
import type { NewUser, User } from '../users/user.js';
import type { UserRepository } from '../users/user-repository.js';

function toUser(row: Selectable<AuthUsersTable>): User {
  return {
    id: row.id,
    name: row.name,
    telNo: row.tel_no,
    email: row.email,
    passwordHash: row.password_hash,
    enabled: Number(row.enabled) === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    tokensValidAfter: Number(row.tokens_valid_after ?? 0),
    keysValidAfter: Number(row.keys_valid_after ?? 0),
  };
}

/**
 * `column` moved forward to `epoch`, never back (an operator's clock behind the service's, or an
 * older reset after a logout everywhere, must not revive tokens). CASE works on both dialects.
 */
function forwardTo(column: 'tokens_valid_after' | 'keys_valid_after', epoch: number) {
  return sql<number>`CASE WHEN ${sql.ref(column)} > ${epoch} THEN ${sql.ref(column)} ELSE ${epoch} END`;
}

/** UserRepository over Kysely (PostgreSQL or SQLite). */
export class SqlUserRepository implements UserRepository {
  constructor(private readonly database: SqlDatabase<AuthDatabase>) {}

  async findById(id: string): Promise<User | undefined> {
    const row = await this.database.db
      .selectFrom('auth_users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  async insertIfAbsent(user: NewUser, now: number): Promise<boolean> {
    const result = await this.database.db
      .insertInto('auth_users')
      .values({
        id: user.id,
        name: user.name,
        tel_no: user.telNo,
        email: user.email,
        password_hash: user.passwordHash,
        enabled: 1,
        created_at: now,
        updated_at: now,
        tokens_valid_after: 0,
        keys_valid_after: 0,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async list(): Promise<User[]> {
    const rows = await this.database.db
      .selectFrom('auth_users')
      .selectAll()
      .orderBy('id')
      .execute();
    return rows.map(toUser);
  }

  async setEnabled(id: string, enabled: boolean, now: number): Promise<boolean> {
    const result = await this.database.db
      .updateTable('auth_users')
      .set(
        enabled
          ? { enabled: 1, updated_at: now }
          : {
              enabled: 0,
              updated_at: now,
              tokens_valid_after: forwardTo('tokens_valid_after', nextTokensValidAfter(now)),
            },
      )
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setPasswordHash(
    id: string,
    passwordHash: string,
    reset?: { now: number; endKeys: boolean },
  ): Promise<boolean> {
    const epoch = reset && nextTokensValidAfter(reset.now);
    const result = await this.database.db
      .updateTable('auth_users')
      .set(
        reset === undefined || epoch === undefined
          ? { password_hash: passwordHash }
          : {
              password_hash: passwordHash,
              updated_at: reset.now,
              tokens_valid_after: forwardTo('tokens_valid_after', epoch),
              ...(reset.endKeys ? { keys_valid_after: forwardTo('keys_valid_after', epoch) } : {}),
            },
      )
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async endTokens(id: string, now: number): Promise<User | undefined> {
    const result = await this.database.db
      .updateTable('auth_users')
      .set({
        updated_at: now,
        tokens_valid_after: forwardTo('tokens_valid_after', nextTokensValidAfter(now)),
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? this.findById(id) : undefined;
  }
}
