function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString(10) : value;
}

/**
 * JSON.stringify that writes a bigint as its decimal string instead of throwing. Still throws on
 * circular structures (the caller turns that into -32603).
 */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, bigintReplacer) ?? 'null';
}
