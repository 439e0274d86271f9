/**
 * Seconds from a Retry-After header: delta-seconds, or an HTTP date (seconds from `now`, at least
 * 0). Undefined for a missing or unreadable value.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** Seconds from a service error message such as "… : retry in 12 s" (token API rate limits). */
export function retryAfterFromMessage(message: string): number | undefined {
  const match = /retry in (\d+) ?s\b/i.exec(message);
  return match ? Number(match[1]) : undefined;
}
