import { TooManyRequestsError } from '@itp/errors';

/** 429 with error.code "slow_down" (RFC 8628 §3.5 in spirit): a client polls too fast. */
export class SlowDownError extends TooManyRequestsError {
  static override readonly code: string = 'slow_down';
}
