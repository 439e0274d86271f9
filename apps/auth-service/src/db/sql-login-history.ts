import type { SqlDatabase } from '@itp/stores';
import { AMR_VALUES, type LoginHistory, type Amr } from '../login/login-history.js';
import type { AuthDatabase } from './database.js';
import { storeCall } from './store-call.js';

/** LoginHistory in `auth_user_logins`: one row per user and method, moved on every login. */
export class SqlLoginHistory implements LoginHistory {
  constructor(private readonly database: SqlDatabase<AuthDatabase>) {}

  async record(userId: string, method: Amr, now: number): Promise<void> {
    return storeCall(async () => {
      await this.database.db
        .insertInto('auth_user_logins')
        .values({ user_id: userId, method, last_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'method']).doUpdateSet({ last_at: now }))
        .execute();
    });
  }

  async lastLogins(userId: string): Promise<Partial<Record<Amr, number>>> {
    return storeCall(async () => {
      const rows = await this.database.db
        .selectFrom('auth_user_logins')
        .select(['method', 'last_at'])
        .where('user_id', '=', userId)
        .execute();
      const last: Partial<Record<Amr, number>> = {};
      for (const row of rows) {
        const method = AMR_VALUES.find((known) => known === row.method);
        if (method) last[method] = Number(row.last_at);
      }
      return last;
    });
  }
}
