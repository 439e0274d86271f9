import type { Approval, ApprovalMethod } from './login-request.js';

/** An approved web-site login request as the ledger keeps it. */
export interface ApprovedLogin {
  /** The decimal id of the requestId. */
  id: string;
  clientId: string;
  prefix: string;
  userId: string;
  method: ApprovalMethod;
  /** Epoch ms of the approval. */
  approvedAt: number;
  /** Epoch ms: collectable until then. */
  expiresAt: number;
}

/**
 * The durable record of approved web-site logins (SQL): an approval survives a Redis that
 * restarts empty, and its result is still handed out exactly once (docs/api.md §2.2).
 */
export interface ApprovalLedger {
  /** Records an approval before it takes effect (idempotent for the same request). */
  recordApproval(approval: ApprovedLogin, now: number): Promise<void>;
  /** Removes an approval that did not take effect (the request changed meanwhile). */
  discardApproval(id: string): Promise<void>;
  /** The approval, once, when approved, not handed out or cancelled, and not expired. */
  consumeApproval(
    id: string,
    clientId: string,
    prefix: string,
    now: number,
  ): Promise<Approval | undefined>;
  /** Marks the approval of `id` handed out or cancelled (no-op without one). */
  closeApproval(id: string, now: number): Promise<void>;
}
