import type { SqlDatabase } from '@itp/stores';
import type {
  CredentialRevocation,
  CredentialRevocationOutbox,
} from '../account/credential-revocations.js';
import type { AuthDatabase } from './database.js';
import { storeCall } from './store-call.js';

/** CredentialRevocationOutbox in `auth_credential_revocations` (one row per user). */
export class SqlCredentialRevocations implements CredentialRevocationOutbox {
  constructor(private readonly database: SqlDatabase<AuthDatabase>) {}

  async request(revocation: CredentialRevocation, now: number): Promise<void> {
    return storeCall(async () => {
      const values = {
        user_id: revocation.userId,
        issued_before: revocation.issuedBefore,
        requested_at: now,
        delivered_at: null,
      };
      await this.database.db
        .insertInto('auth_credential_revocations')
        .values(values)
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            issued_before: revocation.issuedBefore,
            requested_at: now,
            delivered_at: null,
          }),
        )
        .execute();
    });
  }

  async pending(limit: number): Promise<CredentialRevocation[]> {
    return storeCall(async () => {
      const rows = await this.database.db
        .selectFrom('auth_credential_revocations')
        .select(['user_id', 'issued_before'])
        .where('delivered_at', 'is', null)
        .orderBy('requested_at')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        userId: row.user_id,
        issuedBefore: Number(row.issued_before),
      }));
    });
  }

  async delivered(revocation: CredentialRevocation, now: number): Promise<void> {
    return storeCall(async () => {
      await this.database.db
        .updateTable('auth_credential_revocations')
        .set({ delivered_at: now })
        .where('user_id', '=', revocation.userId)
        .where('issued_before', '=', revocation.issuedBefore)
        .where('delivered_at', 'is', null)
        .execute();
    });
  }
}
