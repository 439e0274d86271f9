import { JsonTooDeepError, jsonDepthExceeds } from '@itp/service-kit';

/**
 * A canonical JSON text (object keys sorted, no white space) for comparing two JSON values by
 * content: the claims a client sent against the claims in the JWT. A value nested deeper than
 * MAX_JSON_DEPTH is refused (400) before the recursive walk, which could overflow the stack.
 */
export function canonicalJson(value: unknown): string {
  if (jsonDepthExceeds(value)) throw new JsonTooDeepError();
  return canonical(value);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
