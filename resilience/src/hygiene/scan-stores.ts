import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import pg from 'pg';
import { scanText, type Hit } from './scan-text.js';
import type { SecretLedger } from './secret-ledger.js';

export interface ScanFigures {
  /** Lines, rows or keys looked at. */
  scanned: number;
  hits: Hit[];
}

/**
 * Every line of every log file: known secrets of the run, JWTs, mnemonics and secret-named
 * members with a clear value.
 */
export async function scanLogs(files: string[], ledger: SecretLedger): Promise<ScanFigures> {
  const figures: ScanFigures = { scanned: 0, hits: [] };
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    let n = 0;
    for await (const line of lines) {
      n += 1;
      figures.scanned += 1;
      figures.hits.push(...scanText(line, `${file.split('/').pop()}:${n}`, ledger));
    }
  }
  return figures;
}

/**
 * Every row of every table of every schema of the database (as JSON text, bytea as hex): known
 * private keys, mnemonics, secretKeys and hashKeys of the run, mnemonic-shaped text and
 * secret-named members with a clear value. JWTs are not searched here: VCs are JWTs by design.
 */
export async function scanDatabase(url: string, ledger: SecretLedger): Promise<ScanFigures> {
  const figures: ScanFigures = { scanned: 0, hits: [] };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    for (const { schema, name } of tables.rows) {
      const rows = await client.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM "${schema}"."${name}" t`,
      );
      for (const { row } of rows.rows) {
        figures.scanned += 1;
        figures.hits.push(...scanText(row, `${schema}.${name}`, ledger, { jwt: false }));
      }
    }
  } finally {
    await client.end();
  }
  return figures;
}

/** Every key of Redis (SCAN) with its value, whatever its type. */
export async function scanRedis(url: string, ledger: SecretLedger): Promise<ScanFigures> {
  const figures: ScanFigures = { scanned: 0, hits: [] };
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        figures.scanned += 1;
        const type = await redis.type(key);
        let value: unknown;
        if (type === 'string') value = await redis.get(key);
        else if (type === 'hash') value = await redis.hgetall(key);
        else if (type === 'list') value = await redis.lrange(key, 0, -1);
        else if (type === 'set') value = await redis.smembers(key);
        else if (type === 'zset') value = await redis.zrange(key, 0, -1, 'WITHSCORES');
        else value = null;
        figures.hits.push(
          ...scanText(`${key} ${JSON.stringify(value)}`, `redis ${key}`, ledger, { jwt: false }),
        );
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return figures;
}
