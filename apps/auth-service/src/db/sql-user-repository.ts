import type { Selectable } from 'kysely';
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
  };
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
      .set({ enabled: enabled ? 1 : 0, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setPasswordHash(id: string, passwordHash: string, now?: number): Promise<boolean> {
    const result = await this.database.db
      .updateTable('auth_users')
      .set(
        now === undefined
          ? { password_hash: passwordHash }
          : { password_hash: passwordHash, updated_at: now },
      )
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
