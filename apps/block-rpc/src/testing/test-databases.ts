import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@itp/testing';

export type Dialect = 'postgres' | 'sqlite';

export interface DialectDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a PostgreSQL database on the test server, or a SQLite file. */
export async function freshDatabase(dialect: Dialect): Promise<DialectDatabase> {
  if (dialect === 'postgres') return createTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'block-rpc-'));
  return {
    url: `sqlite:${join(dir, 'block-rpc.sqlite')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
