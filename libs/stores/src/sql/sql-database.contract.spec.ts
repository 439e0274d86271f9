import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@itp/testing';
import { openSqlDatabase } from './open-sql-database.js';
import { sqlDatabaseContract, type ContractDb } from './sql-database.contract.js';

sqlDatabaseContract(
  'sqlite file',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'itp-stores-'));
    const url = `sqlite:${join(dir, 'contract.sqlite')}`;
    return {
      open: () => openSqlDatabase<ContractDb>(url),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  { concurrentConnections: false },
);

sqlDatabaseContract(
  'postgres',
  async () => {
    const database = await createTestDatabase();
    return {
      open: () => openSqlDatabase<ContractDb>(database.url, { poolSize: 4 }),
      cleanup: () => database.drop(),
    };
  },
  { concurrentConnections: true },
);
