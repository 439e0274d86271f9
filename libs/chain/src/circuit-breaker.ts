/**
 * A circuit breaker for one chain node: after `failureThreshold` consecutive failures (timeouts,
 * connection failures) it opens, and while open every call is refused at once instead of waiting
 * for the node's timeout; after `cooldownMs` one call goes through as a probe (half-open) and its
 * outcome decides: an answer closes the breaker, a failure opens it for another cooldown. Only a
 * state machine: the caller says what counts as a failure and turns a refusal into its error.
 */
export type CircuitState = 'closed' | 'open' | 'halfOpen';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the breaker (default 3; 0 = never opens). */
  failureThreshold?: number;
  /** How long it stays open before one probe may go (default 5 000 ms). */
  cooldownMs?: number;
  now?: () => number;
  /** Told of each change of state (for a log line). */
  onStateChange?: (state: CircuitState, detail: { failures: number }) => void;
}

/** What `admit()` answers: a call may go (`probe` when it is the half-open one), or not yet. */
export type CircuitAdmission =
  | { admitted: true; probe: boolean }
  | {
      admitted: false;
      /** Milliseconds until a probe may go (1 s while a probe is under way: it decides soon). */
      retryAfterMs: number;
      /** Consecutive failures that opened it. */
      failures: number;
    };

export const DEFAULT_CIRCUIT_FAILURE_THRESHOLD = 3;
export const DEFAULT_CIRCUIT_COOLDOWN_MS = 5_000;

const PROBE_RETRY_AFTER_MS = 1_000;

export class CircuitBreaker {
  private readonly failureThreshold: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;
  private current: CircuitState = 'closed';
  private failures = 0;
  private openUntil = 0;
  private probing = false;

  constructor(private readonly options: CircuitBreakerOptions = {}) {
    this.failureThreshold = options.failureThreshold ?? DEFAULT_CIRCUIT_FAILURE_THRESHOLD;
    this.cooldownMs = options.cooldownMs ?? DEFAULT_CIRCUIT_COOLDOWN_MS;
    this.now = options.now ?? Date.now;
  }

  /** The state as the next call would find it (open turns half-open once the cooldown is over). */
  get state(): CircuitState {
    if (this.current === 'open' && this.now() >= this.openUntil) return 'halfOpen';
    return this.current;
  }

  /** Asked before each call: whether it may go. An admitted call must be followed by success() or failure(). */
  admit(): CircuitAdmission {
    if (this.current === 'closed') return { admitted: true, probe: false };
    if (this.current === 'open') {
      const wait = this.openUntil - this.now();
      if (wait > 0) return { admitted: false, retryAfterMs: wait, failures: this.failures };
      this.change('halfOpen');
    }
    if (this.probing) {
      return { admitted: false, retryAfterMs: PROBE_RETRY_AFTER_MS, failures: this.failures };
    }
    this.probing = true;
    return { admitted: true, probe: true };
  }

  /** The node answered: the breaker closes (whichever call it was: the node works). */
  success(probe: boolean): void {
    if (probe) this.probing = false;
    this.failures = 0;
    if (this.current !== 'closed') this.change('closed');
  }

  /** The call failed the way a node that is down fails (timeout, connection failure). */
  failure(probe: boolean): void {
    if (probe) this.probing = false;
    this.failures += 1;
    if (this.failureThreshold <= 0) return;
    // A failed probe opens it again at once; a call that was in flight when it opened (or while
    // a probe was under way) does not move the end of the cooldown.
    if (probe || (this.current === 'closed' && this.failures >= this.failureThreshold)) {
      this.openUntil = this.now() + this.cooldownMs;
      this.change('open');
    }
  }

  private change(state: CircuitState): void {
    if (this.current === state) return;
    this.current = state;
    this.options.onStateChange?.(state, { failures: this.failures });
  }
}
