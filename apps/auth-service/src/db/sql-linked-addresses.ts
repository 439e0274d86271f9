import type { SqlDatabase } from '@itp/stores';
import type { LinkedAddresses } from '../siwe/linked-addresses.js';
import type { AuthDatabase } from './database.js';
import { storeCall } from './store-call.js';

/** LinkedAddresses in `auth_linked_addresses` (address in lower case as the primary key). */
export class SqlLinkedAddresses implements LinkedAddresses {
  constructor(private readonly database: SqlDatabase<AuthDatabase>) {}

  async userOf(address: string): Promise<string | undefined> {
    return storeCall(async () => {
      const row = await this.database.db
        .selectFrom('auth_linked_addresses')
        .select('user_id')
        .where('address', '=', address.toLowerCase())
        .executeTakeFirst();
      return row?.user_id;
    });
  }

  async link(
    address: string,
    userId: string,
    now: number,
  ): Promise<'linked' | 'already' | 'taken'> {
    return storeCall(async () => {
      const inserted = await this.database.db
        .insertInto('auth_linked_addresses')
        .values({ address: address.toLowerCase(), user_id: userId, linked_at: now })
        .onConflict((oc) => oc.column('address').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return 'linked';
      const owner = await this.userOf(address);
      return owner === userId ? 'already' : 'taken';
    });
  }

  async unlink(address: string, userId: string): Promise<boolean> {
    return storeCall(async () => {
      const deleted = await this.database.db
        .deleteFrom('auth_linked_addresses')
        .where('address', '=', address.toLowerCase())
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) === 1;
    });
  }

  async addressesOf(userId: string): Promise<string[]> {
    return (await this.linksOf(userId)).map((link) => link.address);
  }

  async linksOf(userId: string): Promise<Array<{ address: string; linkedAt: number }>> {
    return storeCall(async () => {
      const rows = await this.database.db
        .selectFrom('auth_linked_addresses')
        .select(['address', 'linked_at'])
        .where('user_id', '=', userId)
        .orderBy('linked_at')
        .orderBy('address')
        .execute();
      return rows.map((row) => ({ address: row.address, linkedAt: Number(row.linked_at) }));
    });
  }

  async unlinkAll(userId: string): Promise<string[]> {
    return storeCall(async () => {
      const rows = await this.database.db
        .deleteFrom('auth_linked_addresses')
        .where('user_id', '=', userId)
        .returning('address')
        .execute();
      return rows.map((row) => row.address).sort();
    });
  }
}
