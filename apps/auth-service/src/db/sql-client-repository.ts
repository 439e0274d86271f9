import type { Selectable } from 'kysely';
import type { SqlDatabase } from '@itp/stores';
import type { AuthClientsTable, AuthDatabase } from './database.js';
import type { Client, NewClient } from '../clients/client.js';
import type { ClientRepository } from '../clients/client-repository.js';

function parsePrefixes(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
}

function toClient(row: Selectable<AuthClientsTable>): Client {
  return {
    id: row.id,
    name: row.name,
    secretHash: row.secret_hash,
    requestIdPrefixes: parsePrefixes(row.request_id_prefixes),
    enabled: Number(row.enabled) === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** ClientRepository over Kysely (PostgreSQL or SQLite); prefixes are stored as a JSON array. */
export class SqlClientRepository implements ClientRepository {
  constructor(private readonly database: SqlDatabase<AuthDatabase>) {}

  async findById(id: string): Promise<Client | undefined> {
    const row = await this.database.db
      .selectFrom('auth_clients')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toClient(row) : undefined;
  }

  async insertIfAbsent(client: NewClient, now: number): Promise<boolean> {
    const result = await this.database.db
      .insertInto('auth_clients')
      .values({
        id: client.id,
        name: client.name,
        secret_hash: client.secretHash,
        request_id_prefixes: JSON.stringify(client.requestIdPrefixes),
        enabled: 1,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async list(): Promise<Client[]> {
    const rows = await this.database.db
      .selectFrom('auth_clients')
      .selectAll()
      .orderBy('id')
      .execute();
    return rows.map(toClient);
  }

  async setEnabled(id: string, enabled: boolean, now: number): Promise<boolean> {
    const result = await this.database.db
      .updateTable('auth_clients')
      .set({ enabled: enabled ? 1 : 0, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
