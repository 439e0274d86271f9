/** The service's minimum poll interval by default (LOGIN_POLL_MIN_INTERVAL_MS, 1000 ms). */
export const DEFAULT_LOGIN_POLL_INTERVAL_MS = 1000;
/** How much a slow_down grows the interval: 5 s, as RFC 8628 §3.5 (which the service follows) says. */
export const DEFAULT_SLOW_DOWN_STEP_MS = 5000;

/**
 * When to poll a QR login result next. Pending: after the interval. slow_down: the interval grows
 * by the step for this and every later poll, and is never shorter than the Retry-After the service
 * sent. Pure: no clock, no timers.
 */
export class LoginPollSchedule {
  private interval: number;
  private readonly step: number;

  constructor(options: { intervalMs?: number; slowDownStepMs?: number } = {}) {
    this.interval = Math.max(0, options.intervalMs ?? DEFAULT_LOGIN_POLL_INTERVAL_MS);
    this.step = Math.max(0, options.slowDownStepMs ?? DEFAULT_SLOW_DOWN_STEP_MS);
  }

  /** The current interval in milliseconds. */
  get intervalMs(): number {
    return this.interval;
  }

  /** The wait after a "still pending" answer (or a transient failure). */
  afterPending(): number {
    return this.interval;
  }

  /** The wait after a slow_down answer with its Retry-After (seconds), if any. */
  afterSlowDown(retryAfterSeconds?: number): number {
    this.interval = Math.max(this.interval + this.step, (retryAfterSeconds ?? 0) * 1000);
    return this.interval;
  }
}
