const DAY_MS = 86_400_000;
/** 9999-12-31T23:59:59Z: later timestamps are filed under that day. */
const LAST_SECOND = 253_402_300_799;

/** The UTC day (YYYY-MM-DD) of a Unix timestamp in seconds. */
export function utcDay(timestampSeconds: number): string {
  const clamped = Math.min(Math.max(timestampSeconds, 0), LAST_SECOND);
  return new Date(clamped * 1000).toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included (YYYY-MM-DD, from ≤ to assumed valid). */
export function daysInRange(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end; t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** How many days `from` … `to` spans, both included. */
export function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}
