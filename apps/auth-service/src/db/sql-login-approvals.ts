import type { SqlDatabase } from '@itp/stores';
import { LoginRequestUnknownError } from '../errors.js';
import type { ApprovalLedger, ApprovedLogin } from '../login-requests/approval-ledger.js';
import type { Approval } from '../login-requests/login-request.js';
import type { AuthDatabase } from './database.js';
import { storeCall } from './store-call.js';

/**
 * The approved web-site login requests (`auth_login_approvals`, docs/api.md §2): an approval
 * survives a Redis that restarts empty or goes back in time, and its result is handed out once.
 * Rows live until they would be refused anyway (an expired request) and are deleted then, a few
 * at a time on later writes. (Used login VPs and Sign-In with Ethereum nonces are @itp/stores'
 * one-time marks: app.ts.)
 */
export class SqlLoginApprovals implements ApprovalLedger {
  constructor(private readonly database: SqlDatabase<AuthDatabase>) {}

  /**
   * Records an approval (idempotent for the same request). A request whose result was handed out
   * or that was cancelled is not approved again (LoginRequestUnknownError): only a Redis that went
   * back in time shows it pending again.
   */
  async recordApproval(approval: ApprovedLogin, now: number): Promise<void> {
    return storeCall(async () => {
      await this.dropExpired(now);
      const inserted = await this.database.db
        .insertInto('auth_login_approvals')
        .values({
          id: approval.id,
          client_id: approval.clientId,
          prefix: approval.prefix,
          user_id: approval.userId,
          method: approval.method,
          approved_at: approval.approvedAt,
          expires_at: approval.expiresAt,
          consumed_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return;
      const existing = await this.database.db
        .selectFrom('auth_login_approvals')
        .select('consumed_at')
        .where('id', '=', approval.id)
        .executeTakeFirst();
      if (existing && existing.consumed_at !== null) {
        throw new LoginRequestUnknownError({ status: 'consumed' });
      }
    });
  }

  /**
   * Hands out the approval of request `id` for `clientId` / `prefix` once: who approved and how, when it was
   * approved, not yet handed out or cancelled, and not expired; else undefined. One UPDATE, so
   * of concurrent callers on any instance only one gets it.
   */
  async consumeApproval(
    id: string,
    clientId: string,
    prefix: string,
    now: number,
  ): Promise<Approval | undefined> {
    return storeCall(async () => {
      const claimed = await this.database.db
        .updateTable('auth_login_approvals')
        .set({ consumed_at: now })
        .where('id', '=', id)
        .where('client_id', '=', clientId)
        .where('prefix', '=', prefix)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return undefined;
      const row = await this.database.db
        .selectFrom('auth_login_approvals')
        .select(['user_id', 'method', 'approved_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      return (
        row && {
          userId: row.user_id,
          method: row.method === 'vp' ? 'vp' : 'app',
          ...(row.approved_at === null ? {} : { approvedAt: Number(row.approved_at) }),
        }
      );
    });
  }

  /** Marks request `id` as handed out or cancelled (no-op when it has no approval). */
  async closeApproval(id: string, now: number): Promise<void> {
    return storeCall(async () => {
      await this.database.db
        .updateTable('auth_login_approvals')
        .set({ consumed_at: now })
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .execute();
    });
  }

  /** Removes an approval that did not take effect (the request changed meanwhile). */
  async discardApproval(id: string): Promise<void> {
    return storeCall(async () => {
      await this.database.db
        .deleteFrom('auth_login_approvals')
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .execute();
    });
  }

  private async dropExpired(now: number): Promise<void> {
    // Rows stay an hour past their expiry (clock skew between replicas costs nothing then).
    await this.database.db
      .deleteFrom('auth_login_approvals')
      .where('expires_at', '<', now - 3_600_000)
      .execute();
  }
}
