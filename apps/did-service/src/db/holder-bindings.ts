import type { SqlDatabase } from '@itp/stores';
import { canonicalDid } from '../dids/did-ethr.js';
import type { DidTables } from './did-tables.js';

/**
 * Which user a holder DID belongs to (docs/api.md §3, amended): bound ONLY by create-did carrying
 * both the wallet's secretKey and the user's bearer JWT; the same call by another user who also
 * holds the secretKey re-binds it (whoever holds the secretKey decides). Nothing else binds.
 */
export class HolderBindings {
  constructor(private readonly database: SqlDatabase<DidTables>) {}

  /**
   * Binds `did` to `userId`, replacing any earlier binding. Call it only after the wallet's
   * secretKey was proven in the same request (create-did).
   */
  async bind(did: string, userId: string): Promise<void> {
    const key = canonicalDid(did);
    await this.database.db
      .insertInto('did_holder_bindings')
      .values({ did: key, user_id: userId, bound_at: new Date().toISOString() })
      .onConflict((oc) =>
        oc.column('did').doUpdateSet((eb) => ({
          user_id: eb.ref('excluded.user_id'),
          bound_at: eb.ref('excluded.bound_at'),
        })),
      )
      .execute();
  }

  /** The user `did` is bound to, or undefined. */
  async boundUser(did: string): Promise<string | undefined> {
    const row = await this.database.db
      .selectFrom('did_holder_bindings')
      .select('user_id')
      .where('did', '=', canonicalDid(did))
      .executeTakeFirst();
    return row?.user_id;
  }
}
