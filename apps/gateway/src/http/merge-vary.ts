type HeaderValue = number | string | string[] | undefined;

function fields(value: HeaderValue): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [String(value)];
  return list
    .flatMap((v) => v.split(','))
    .map((f) => f.trim())
    .filter(Boolean);
}

/**
 * Union of two `Vary` header values (case-insensitive, first spelling kept, `*` wins), so that the
 * gateway's `Vary: Origin` survives an upstream that sends its own `Vary`. Undefined when both are empty.
 */
export function mergeVary(a: HeaderValue, b: HeaderValue): string | undefined {
  const seen = new Map<string, string>();
  for (const field of [...fields(a), ...fields(b)]) {
    if (field === '*') return '*';
    if (!seen.has(field.toLowerCase())) seen.set(field.toLowerCase(), field);
  }
  return seen.size > 0 ? [...seen.values()].join(', ') : undefined;
}
