import type { SqlDatabase } from '@itp/stores';
import { canonicalDid } from '../dids/did-ethr.js';
import type { DidTables } from './did-tables.js';

/**
 * Which user a holder DID belongs to (contract §3): bound once — by create-did with a bearer JWT
 * or by the first create-vc — and never moved to another user.
 */
export class HolderBindings {
  constructor(private readonly database: SqlDatabase<DidTables>) {}

  /**
   * Binds `did` to `userId` unless it is bound already; returns the user it is bound to now
   * (another user's id when someone else got there first, also under concurrency).
   */
  async bind(did: string, userId: string): Promise<string> {
    const key = canonicalDid(did);
    await this.database.db
      .insertInto('did_holder_bindings')
      .values({ did: key, user_id: userId, bound_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('did').doNothing())
      .execute();
    const bound = await this.boundUser(key);
    if (bound === undefined) throw new Error(`binding of ${key} vanished`);
    return bound;
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
