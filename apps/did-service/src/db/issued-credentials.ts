import type { IssuedCredential } from '@itp/schemas';
import type { SqlDatabase } from '@itp/stores';
import type { DidTables } from './did-tables.js';

/** How a credential was issued (docs/api.md §12). */
export type IssuedVia = IssuedCredential['via'];

/** One credential issued for a user, as recorded when it was signed. */
export interface IssuedCredentialRecord {
  /** `vc.id` / JWT `jti` (`urn:uuid:…`). */
  id: string;
  userId: string;
  holder: string;
  /** ISO 8601 UTC. */
  issuedAt: string;
  /** ISO 8601 UTC; undefined for a VC without expiry. */
  expiresAt?: string | undefined;
  via: IssuedVia;
  /** Its status entry: list id and index (did_status_entries). */
  listId: string;
  index: number;
}

/** The most credentials `GET /v2/did/credentials` answers (the newest). */
export const ISSUED_CREDENTIALS_LIMIT = 1000;

/**
 * The credentials this service issued for each user (create-vc and OpenID4VCI alike, recorded
 * where both sign: credentials/issue-credential.ts): `GET /v2/did/credentials` lists them with
 * the status of their status entry.
 */
export class IssuedCredentialStore {
  constructor(private readonly database: SqlDatabase<DidTables>) {}

  async record(credential: IssuedCredentialRecord): Promise<void> {
    await this.database.db
      .insertInto('did_issued_credentials')
      .values({
        id: credential.id,
        user_id: credential.userId,
        holder: credential.holder,
        issued_at: credential.issuedAt,
        expires_at: credential.expiresAt ?? null,
        via: credential.via,
        status_list_id: credential.listId,
        status_index: credential.index,
        recorded_at: Date.now(),
      })
      .execute();
  }

  /**
   * The user's credentials, newest first (at most `limit`), each `revoked` when the bit of its
   * status entry is set.
   */
  async listForUser(userId: string, limit = ISSUED_CREDENTIALS_LIMIT): Promise<IssuedCredential[]> {
    const rows = await this.database.db
      .selectFrom('did_issued_credentials as c')
      .leftJoin('did_status_entries as e', (join) =>
        join
          .onRef('e.list_id', '=', 'c.status_list_id')
          .onRef('e.status_index', '=', 'c.status_index'),
      )
      .select(['c.id', 'c.holder', 'c.issued_at', 'c.expires_at', 'c.via', 'e.revoked'])
      .where('c.user_id', '=', userId)
      .orderBy('c.recorded_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      holder: row.holder,
      issuedAt: row.issued_at,
      ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
      status: Number(row.revoked) === 1 ? 'revoked' : 'valid',
      via: row.via as IssuedVia,
    }));
  }
}
