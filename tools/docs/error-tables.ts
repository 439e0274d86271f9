/**
 * Writes the error tables of the API READMEs from the error catalogs in @itp/schemas (one table
 * per API, the only place a code and its meaning are written). `npm run docs:errors` rewrites the
 * blocks between the markers; error-tables.spec.ts fails when a README drifts from its catalog.
 *
 *   <!-- generated:errors:token (npm run docs:errors) -->
 *   …table…
 *   <!-- /generated:errors:token -->
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import {
  AUTH_ERRORS,
  BLOCK_SERVICE_ERRORS,
  DID_ERRORS,
  GATEWAY_ERRORS,
  TOKEN_SERVICE_ERRORS,
  type RestErrorDoc,
  type ServiceErrorDoc,
} from '@itp/schemas';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface ErrorTable {
  /** Marker name. */
  name: string;
  /** README, relative to the repository root. */
  readme: string;
  render: () => string;
}

export const ERROR_TABLES: ErrorTable[] = [
  {
    name: 'token',
    readme: 'apps/token-rpc/README.md',
    render: () => renderServiceErrorTable(TOKEN_SERVICE_ERRORS),
  },
  {
    name: 'block',
    readme: 'apps/block-rpc/README.md',
    render: () => renderServiceErrorTable(BLOCK_SERVICE_ERRORS),
  },
  {
    name: 'auth',
    readme: 'apps/auth-service/README.md',
    render: () => renderRestErrorTable(AUTH_ERRORS),
  },
  {
    name: 'did',
    readme: 'apps/did-service/README.md',
    render: () => renderRestErrorTable(DID_ERRORS),
  },
  {
    name: 'gateway',
    readme: 'apps/gateway/README.md',
    render: () => renderRestErrorTable(GATEWAY_ERRORS),
  },
];

const cell = (text: string) => text.replaceAll('|', '\\|');

/** One row per (status, code), in status order; the situations of one pair joined with "; ". */
export function renderRestErrorTable(catalog: Record<string, RestErrorDoc>): string {
  const rows = new Map<string, { status: number; code: string; whens: string[] }>();
  for (const { status, code, when } of Object.values(catalog)) {
    const key = `${status} ${code}`;
    const row = rows.get(key) ?? { status, code, whens: [] };
    row.whens.push(when);
    rows.set(key, row);
  }
  const lines = [...rows.values()]
    .sort((a, b) => a.status - b.status || a.code.localeCompare(b.code))
    .map((r) => `| ${r.status} | \`${r.code}\` | ${cell(r.whens.join('; '))} |`);
  return ['| HTTP | `error.code` | when |', '| --- | --- | --- |', ...lines].join('\n');
}

/** One row per resultCode, in code order; the situations of one code joined with "; ". */
export function renderServiceErrorTable(catalog: Record<string, ServiceErrorDoc>): string {
  const byCode = new Map<string, string[]>();
  for (const { resultCode, when } of Object.values(catalog)) {
    byCode.set(resultCode, [...(byCode.get(resultCode) ?? []), when]);
  }
  const rows = [...byCode.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, whens]) => `| \`"${code}"\` | ${cell(whens.join('; '))} |`);
  return ['| resultCode | when |', '| --- | --- |', ...rows].join('\n');
}

function markers(name: string): { start: string; end: string } {
  return {
    start: `<!-- generated:errors:${name} (npm run docs:errors) -->`,
    end: `<!-- /generated:errors:${name} -->`,
  };
}

/** The README text with its generated block replaced, formatted as prettier would. */
export async function regenerate(table: ErrorTable, text: string): Promise<string> {
  const { start, end } = markers(table.name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) {
    throw new Error(`${table.readme}: markers for "${table.name}" are missing (${start} … ${end})`);
  }
  const next = `${text.slice(0, from + start.length)}\n\n${table.render()}\n\n${text.slice(to)}`;
  const file = join(ROOT, table.readme);
  const options = (await resolveConfig(file)) ?? {};
  return format(next, { ...options, filepath: file });
}

async function main(): Promise<void> {
  for (const table of ERROR_TABLES) {
    const file = join(ROOT, table.readme);
    const text = readFileSync(file, 'utf8');
    const next = await regenerate(table, text);
    if (next !== text) {
      writeFileSync(file, next);
      console.log(`wrote the error table of ${table.readme}`);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
