/**
 * The CLI's plain-text output: column tables and key/value listings, aligned with spaces, no
 * colours (safe for pipes and logs). `--json` bypasses all of this.
 */

/** A column: the key of each row and, optionally, a header other than the key. */
export type Column = string | { key: string; header: string };

/** One cell as text: missing values as `-`, objects as compact JSON, no line breaks. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  const text =
    typeof value === 'object'
      ? JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
      : String(value);
  return text.replace(/\r?\n/g, ' ');
}

function pad(cells: string[], widths: number[]): string {
  return cells
    .map((cell, i) => cell.padEnd(widths[i] ?? 0))
    .join('  ')
    .trimEnd();
}

/** Rows under a header line, each column as wide as its widest cell; ends with a newline. */
export function table(rows: ReadonlyArray<Record<string, unknown>>, columns: Column[]): string {
  const keys = columns.map((c) => (typeof c === 'string' ? c : c.key));
  const headers = columns.map((c) => (typeof c === 'string' ? c : c.header));
  const cells = rows.map((row) => keys.map((key) => cellText(row[key])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  return [pad(headers, widths), ...cells.map((r) => pad(r, widths))].join('\n') + '\n';
}

/**
 * One record as `key  value` lines, keys aligned; `keys` picks and orders the fields (default:
 * all, in the record's order). Ends with a newline.
 */
export function keyValues(record: Record<string, unknown>, keys?: string[]): string {
  const names = keys ?? Object.keys(record);
  const width = Math.max(0, ...names.map((k) => k.length));
  return names.map((k) => `${k.padEnd(width)}  ${cellText(record[k])}`).join('\n') + '\n';
}
