import type { SqlDatabase } from '@itp/stores';
import type { ApprovalLedger, ApprovedLogin } from '../login-requests/approval-ledger.js';
import type { Approval } from '../login-requests/login-request.js';
import type { SiweNonceLedger } from '../siwe/siwe-nonces.js';
import type { VpUseLedger } from '../vp-login/vp-use-ledger.js';
import type { AuthDatabase } from './database.js';
import { storeCall } from './store-call.js';

/**
 * The one-time rules of auth-service that must survive a Redis that restarts empty
 * (docs/api.md §2, §11): a login VP and a Sign-In with Ethereum nonce are used once, an
 * approved login result is handed out once. Rows live until they would be refused anyway (a
 * stale VP, an expired nonce or request) and are deleted then, a few at a time on later writes.
 */
export class SqlOneTimeMarks implements ApprovalLedger, VpUseLedger, SiweNonceLedger {
  constructor(private readonly database: SqlDatabase<AuthDatabase>) {}

  /** Marks a VP used; false when it was used before (a replay). */
  async markVpUsed(idHash: string, expiresAt: number, now: number): Promise<boolean> {
    return this.markUsed(idHash, expiresAt, now);
  }

  /**
   * Marks a Sign-In with Ethereum nonce used; false when it was used before. The same table as
   * used VPs: its keys are SHA-256 hashes of namespaced inputs, so the two never meet.
   */
  async markNonceUsed(nonceHash: string, expiresAt: number, now: number): Promise<boolean> {
    return this.markUsed(nonceHash, expiresAt, now);
  }

  private async markUsed(idHash: string, expiresAt: number, now: number): Promise<boolean> {
    return storeCall(async () => {
      await this.dropExpired('auth_vp_uses', now);
      const result = await this.database.db
        .insertInto('auth_vp_uses')
        .values({ id_hash: idHash, expires_at: expiresAt })
        .onConflict((oc) => oc.column('id_hash').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    });
  }

  /** Records an approval (idempotent for the same request). */
  async recordApproval(approval: ApprovedLogin, now: number): Promise<void> {
    return storeCall(async () => {
      await this.dropExpired('auth_login_approvals', now);
      await this.database.db
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
        .execute();
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

  private async dropExpired(
    table: 'auth_vp_uses' | 'auth_login_approvals',
    now: number,
  ): Promise<void> {
    // Rows stay an hour past their expiry (clock skew between replicas costs nothing then).
    await this.database.db
      .deleteFrom(table)
      .where('expires_at', '<', now - 3_600_000)
      .execute();
  }
}
