import type { SqlDatabase } from '@itp/stores';
import type { DidTables } from './did-tables.js';

export interface StatusListRow {
  id: string;
  issuer: string;
  length: number;
  revision: number;
  /** The signed list credential (JSON with proof.jwt) of `credentialRevision`, when there is one. */
  credential: string | null;
  credentialRevision: number | null;
}

export interface StatusEntryRow {
  listId: string;
  index: number;
  userId: string;
  revoked: boolean;
}

/** The SQL side of status lists: lists per issuer, handed-out entries, revocations. */
export class StatusListStore {
  constructor(private readonly database: SqlDatabase<DidTables>) {}

  /** The oldest list of `issuer` that is not full, if any. */
  async currentList(issuer: string): Promise<{ id: string; length: number } | undefined> {
    return this.database.db
      .selectFrom('did_status_lists')
      .select(['id', 'length'])
      .where('issuer', '=', issuer)
      .where('is_full', '=', 0)
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  async createList(id: string, issuer: string, length: number): Promise<void> {
    await this.database.db
      .insertInto('did_status_lists')
      .values({
        id,
        issuer,
        length,
        is_full: 0,
        revision: 0,
        credential: null,
        credential_revision: null,
        created_at: new Date().toISOString(),
      })
      .execute();
  }

  /**
   * Hands out `index` of the list to `userId` unless it is taken: true when this call got it.
   * The primary key (list_id, status_index) decides between concurrent callers.
   */
  async claim(listId: string, index: number, userId: string): Promise<boolean> {
    const row = await this.database.db
      .insertInto('did_status_entries')
      .values({
        list_id: listId,
        status_index: index,
        user_id: userId,
        issued_at: new Date().toISOString(),
        revoked: 0,
        revoked_at: null,
      })
      .onConflict((oc) => oc.columns(['list_id', 'status_index']).doNothing())
      .returning('status_index')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every index of the list handed out so far. */
  async usedIndexes(listId: string): Promise<number[]> {
    const rows = await this.database.db
      .selectFrom('did_status_entries')
      .select('status_index')
      .where('list_id', '=', listId)
      .execute();
    return rows.map((r) => Number(r.status_index));
  }

  async markFull(listId: string): Promise<void> {
    await this.database.db
      .updateTable('did_status_lists')
      .set({ is_full: 1 })
      .where('id', '=', listId)
      .execute();
  }

  async list(listId: string): Promise<StatusListRow | undefined> {
    const row = await this.database.db
      .selectFrom('did_status_lists')
      .select(['id', 'issuer', 'length', 'revision', 'credential', 'credential_revision'])
      .where('id', '=', listId)
      .executeTakeFirst();
    return row
      ? {
          id: row.id,
          issuer: row.issuer,
          length: Number(row.length),
          revision: Number(row.revision),
          credential: row.credential,
          credentialRevision:
            row.credential_revision === null ? null : Number(row.credential_revision),
        }
      : undefined;
  }

  async entry(listId: string, index: number): Promise<StatusEntryRow | undefined> {
    const row = await this.database.db
      .selectFrom('did_status_entries')
      .select(['user_id', 'revoked'])
      .where('list_id', '=', listId)
      .where('status_index', '=', index)
      .executeTakeFirst();
    return row
      ? { listId, index, userId: row.user_id, revoked: Number(row.revoked) === 1 }
      : undefined;
  }

  /** The revoked indexes of the list. */
  async revokedIndexes(listId: string): Promise<number[]> {
    const rows = await this.database.db
      .selectFrom('did_status_entries')
      .select('status_index')
      .where('list_id', '=', listId)
      .where('revoked', '=', 1)
      .execute();
    return rows.map((r) => Number(r.status_index));
  }

  /**
   * Sets the revoked bit of an entry, for good, and bumps the list's revision when the bit
   * changed (one transaction). False when it was revoked already.
   */
  async revoke(listId: string, index: number): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('did_status_entries')
        .set({ revoked: 1, revoked_at: new Date().toISOString() })
        .where('list_id', '=', listId)
        .where('status_index', '=', index)
        .where('revoked', '=', 0)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await trx
        .updateTable('did_status_lists')
        .set((eb) => ({ revision: eb('revision', '+', 1) }))
        .where('id', '=', listId)
        .execute();
      return true;
    });
  }

  /**
   * Sets, for good, the revoked bit of every entry handed out to `userId` before `issuedBefore`
   * (ISO 8601 UTC) that is not revoked yet, and bumps the revision of each list that changed
   * (one transaction, as `revoke`); how many bits this call set. The entries are every VC
   * issued for the user with a status entry, recorded in did_issued_credentials or not (VCs
   * issued before that table existed included).
   */
  async revokeUserEntries(userId: string, issuedBefore: string): Promise<number> {
    return this.database.db.transaction().execute(async (trx) => {
      const revoked = await trx
        .updateTable('did_status_entries')
        .set({ revoked: 1, revoked_at: new Date().toISOString() })
        .where('user_id', '=', userId)
        .where('issued_at', '<', issuedBefore)
        .where('revoked', '=', 0)
        .returning('list_id')
        .execute();
      // Entries before lists (as `revoke`), lists in one order: concurrent revocations never
      // wait on each other in a circle.
      for (const listId of [...new Set(revoked.map((r) => r.list_id))].sort()) {
        await trx
          .updateTable('did_status_lists')
          .set((eb) => ({ revision: eb('revision', '+', 1) }))
          .where('id', '=', listId)
          .execute();
      }
      return revoked.length;
    });
  }

  /**
   * Keeps the signed credential of `revision` unless a newer revision's is stored already
   * (replicas that signed the same revision at once: one write wins, both are valid).
   */
  /**
   * Keeps the list's credential of `revision` unless one of it (or newer) is kept; whether it
   * did.
   */
  async saveCredential(listId: string, revision: number, credential: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('did_status_lists')
      .set({ credential, credential_revision: revision })
      .where('id', '=', listId)
      .where((eb) =>
        eb.or([eb('credential_revision', 'is', null), eb('credential_revision', '<', revision)]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
