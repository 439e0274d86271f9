/**
 * States of a web-site login request: pending → approved → consumed, or → cancelled, or pending →
 * declined (the user refused in an OpenID4VP wallet: an error response, docs/api.md §8).
 */
export type LoginRequestStatus = 'pending' | 'approved' | 'consumed' | 'cancelled' | 'declined';

/**
 * How the user approved: `app` (the phone app, auth-user-with-vp) or `vp` (any wallet, OpenID4VP).
 * The OpenID Connect provider names it in the id_token's `amr`.
 */
export type ApprovalMethod = 'app' | 'vp';

/** Who approved a request, and how: what a relying party's hand-out carries. */
export interface Approval {
  userId: string;
  method: ApprovalMethod;
  /** Epoch ms (absent for approvals recorded before it was kept): a reset after it ends it. */
  approvedAt?: number;
}

/** Stored in the KvStore as JSON under `login:<id>`. */
export interface LoginRequest {
  clientId: string;
  /** The site identifier exactly as the client sent it. */
  prefix: string;
  status: LoginRequestStatus;
  /** Set by the approval. */
  userId?: string;
  /** Set by the approval (absent in records written before it existed: `app`). */
  method?: ApprovalMethod;
  /** Set by the approval: epoch ms. */
  approvedAt?: number;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms: createdAt + waitTime; no approval after this. */
  expiresAt: number;
}
