/**
 * Writes the tables of the documentation that are read from code (`npm run docs:tables`):
 * bench's scenarios, e2e's suites, the internal-API matrix of docs/security.md. tables.spec.ts fails when a document
 * drifts from its code. (The API READMEs' error tables: error-tables.ts, `npm run docs:errors`.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_SCENARIOS_FILE, renderBenchReadmeTable } from './bench-table.js';
import { E2E_SUITES_INDEX, renderE2eReadmeTable } from './e2e-table.js';
import { regenerateTable, type GeneratedTable } from './generated-block.js';
import { renderSecurityMatrix } from './internal-api-matrix.js';
import { ROOT } from './error-tables.js';

export const TABLES: GeneratedTable[] = [
  {
    name: 'bench-scenarios',
    file: 'bench/README.md',
    sources: `SCENARIOS of ${BENCH_SCENARIOS_FILE}`,
    render: renderBenchReadmeTable,
  },
  {
    name: 'e2e-suites',
    file: 'e2e/README.md',
    sources: `SUITES of ${E2E_SUITES_INDEX} and the suites' doc comments`,
    render: renderE2eReadmeTable,
  },
  {
    name: 'internal-api',
    file: 'docs/security.md',
    sources:
      "the apps' internal routers (requireInternalToken) and their calls of /internal/… paths",
    render: renderSecurityMatrix,
  },
];

async function main(): Promise<void> {
  for (const table of TABLES) {
    const file = join(ROOT, table.file);
    const text = readFileSync(file, 'utf8');
    const next = await regenerateTable(table, ROOT, text);
    if (next !== text) {
      writeFileSync(file, next);
      console.log(`wrote the ${table.name} table of ${table.file}`);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
