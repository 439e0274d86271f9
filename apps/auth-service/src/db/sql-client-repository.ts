import type { Selectable } from 'kysely';
import type { SqlDatabase } from '@itp/stores';
import type { AuthClientsTable, AuthDatabase } from './database.js';
import {
  ID_TOKEN_SIGNING_ALGS,
  type Client,
  type ClientUris,
  type IdTokenSigningAlg,
  type NewClient,
} from '../clients/client.js';
import type { ClientRepository } from '../clients/client-repository.js';

function parseStrings(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
}

function idTokenAlg(value: string): IdTokenSigningAlg {
  return (ID_TOKEN_SIGNING_ALGS as readonly string[]).includes(value)
    ? (value as IdTokenSigningAlg)
    : 'ES256';
}

function toClient(row: Selectable<AuthClientsTable>): Client {
  return {
    id: row.id,
    name: row.name,
    secretHash: row.secret_hash,
    requestIdPrefixes: parseStrings(row.request_id_prefixes),
    redirectUris: parseStrings(row.redirect_uris),
    postLogoutRedirectUris: parseStrings(row.post_logout_redirect_uris),
    backchannelLogoutUri: row.backchannel_logout_uri ?? null,
    idTokenSigningAlg: idTokenAlg(row.id_token_signing_alg),
    enabled: Number(row.enabled) === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** ClientRepository over Kysely (PostgreSQL or SQLite); lists are stored as JSON arrays. */
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
        redirect_uris: JSON.stringify(client.redirectUris ?? []),
        post_logout_redirect_uris: JSON.stringify(client.postLogoutRedirectUris ?? []),
        backchannel_logout_uri: client.backchannelLogoutUri ?? null,
        id_token_signing_alg: client.idTokenSigningAlg ?? 'ES256',
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

  async setRequestIdPrefixes(id: string, prefixes: string[], now: number): Promise<boolean> {
    const result = await this.database.db
      .updateTable('auth_clients')
      .set({ request_id_prefixes: JSON.stringify(prefixes), updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setIdTokenSigningAlg(id: string, alg: IdTokenSigningAlg, now: number): Promise<boolean> {
    const result = await this.database.db
      .updateTable('auth_clients')
      .set({ id_token_signing_alg: alg, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setRedirectUris(id: string, uris: ClientUris, now: number): Promise<boolean> {
    const result = await this.database.db
      .updateTable('auth_clients')
      .set({
        redirect_uris: JSON.stringify(uris.redirectUris),
        post_logout_redirect_uris: JSON.stringify(uris.postLogoutRedirectUris),
        backchannel_logout_uri: uris.backchannelLogoutUri,
        updated_at: now,
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
