import { refuse } from './refuse.js';

/** Clock skew allowed on `exp`, `nbf`, `iat` and the KB-JWT's `iat`. */
export const CLOCK_SKEW_SECONDS = 60;

/**
 * Refuses a credential past its `exp` ('expired') or before its `nbf` / `iat` ('not_yet_valid'),
 * with CLOCK_SKEW_SECONDS of skew; a time claim that is not a number is 'format'.
 */
export function checkValidityWindow(payload: Record<string, unknown>, nowSeconds: number): void {
  const exp = timeClaim(payload, 'exp');
  const nbf = timeClaim(payload, 'nbf');
  const iat = timeClaim(payload, 'iat');
  if (exp !== undefined && exp + CLOCK_SKEW_SECONDS < nowSeconds) {
    throw refuse('expired', `the credential expired at ${new Date(exp * 1000).toISOString()}`);
  }
  for (const [name, value] of [['nbf', nbf] as const, ['iat', iat] as const]) {
    if (value !== undefined && value - CLOCK_SKEW_SECONDS > nowSeconds) {
      throw refuse(
        'not_yet_valid',
        `the credential's ${name} is ${new Date(value * 1000).toISOString()}`,
      );
    }
  }
}

function timeClaim(payload: Record<string, unknown>, name: string): number | undefined {
  const value = payload[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw refuse('format', `${name} is not a NumericDate`);
  return value;
}
