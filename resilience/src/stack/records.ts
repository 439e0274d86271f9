import pg from 'pg';

/** Rows of every table of the stack's database, by `schema.table`. */
export async function countRecords(databaseUrl: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
       AND table_name NOT LIKE '%migration%' ORDER BY 1, 2`,
    );
    const counts: Record<string, number> = {};
    for (const { schema, name } of tables.rows) {
      const r = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM "${schema}"."${name}"`,
      );
      counts[`${schema}.${name}`] = Number(r.rows[0]?.n ?? 0);
    }
    return counts;
  } finally {
    await client.end();
  }
}

/** One query against the stack's database (the suite's own checks). */
export async function query<T extends pg.QueryResultRow>(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
