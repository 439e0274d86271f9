/** States of a web-site login request: pending → approved → consumed, or → cancelled. */
export type LoginRequestStatus = 'pending' | 'approved' | 'consumed' | 'cancelled';

/** Stored in the KvStore as JSON under `login:<id>`. */
export interface LoginRequest {
  clientId: string;
  /** The site identifier exactly as the client sent it. */
  prefix: string;
  status: LoginRequestStatus;
  /** Set by the approval. */
  userId?: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms: createdAt + waitTime; no approval after this. */
  expiresAt: number;
}
