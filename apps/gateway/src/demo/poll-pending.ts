import type { AuthAnswer } from './demo-auth-call.js';

/** A poll of the demo site that has no outcome yet (the page polls again, not sooner than asked). */
export interface PendingState {
  status: 'pending';
  retryAfterSeconds?: number;
}

/**
 * auth-service's "not yet" to a site's poll (docs/api.md §2 and §14): 401 (still pending), or
 * 429 (slow down: pending, again after the answer's Retry-After seconds, 1 when it gives none
 * usable). Any other answer is not pending (undefined).
 */
export function pollPending(answer: AuthAnswer): PendingState | undefined {
  if (answer.status === 401) return { status: 'pending' };
  if (answer.status === 429) {
    const seconds = Number(answer.retryAfter);
    return {
      status: 'pending',
      retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 1,
    };
  }
  return undefined;
}
