/** Clocks of other machines may be a little behind: certificates start this much in the past. */
export const BACKDATE_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** notBefore a few minutes ago, notAfter `days` from now. */
export function validityPeriod(
  days: number,
  now: Date = new Date(),
): { notBefore: Date; notAfter: Date } {
  if (!Number.isFinite(days) || days <= 0) {
    throw new RangeError(`validityDays must be a positive number, got ${days}`);
  }
  return {
    notBefore: new Date(now.getTime() - BACKDATE_MS),
    notAfter: new Date(now.getTime() + days * DAY_MS),
  };
}
