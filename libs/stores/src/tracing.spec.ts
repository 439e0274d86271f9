import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createChainClient } from '@itp/chain';
import { inSpan, startTracing, type Tracing } from '@itp/service-kit';
import {
  createTestDatabase,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import { RedisKvStore } from './kv/redis-kv-store.js';
import { openSqlDatabase } from './sql/open-sql-database.js';

/** Redis, SQL and chain calls made inside a request appear as its child spans. */
describe('spans of the outside systems (real Redis, PostgreSQL and chain)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let testDb: TestDatabase;

  beforeAll(async () => {
    tracing = await startTracing({
      serviceName: 'stores-spec',
      config: {},
      spanProcessor: new SimpleSpanProcessor(exporter),
    });
    testDb = await createTestDatabase();
  });

  afterAll(async () => {
    await tracing.shutdown();
    await testDb.drop();
  });

  it('records one child span per Redis command, SQL statement and chain call', async () => {
    const kv = new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('trace') });
    const database = openSqlDatabase(testDb.url);
    const chain = createChainClient({ rpcUrl: testChainUrl() });
    try {
      await inSpan('request', {}, async () => {
        await kv.set('k', 'v');
        expect(await kv.get('k')).toBe('v');
        await sql`select 1`.execute(database.db);
        await chain.request('eth_blockNumber');
      });
    } finally {
      await kv.close();
      await database.close();
      await chain.close();
    }
    const spans = exporter.getFinishedSpans();
    const parent = spans.find((s) => s.name === 'request')!;
    const children = spans.filter(
      (s) => s.parentSpanContext?.spanId === parent.spanContext().spanId,
    );
    expect(children.map((s) => s.name)).toEqual([
      'redis SET',
      'redis GET',
      'sql SELECT',
      'chain eth_blockNumber',
    ]);
    for (const child of children) {
      expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
    }
    expect(children[2]!.attributes).toEqual({
      'db.system': 'postgresql',
      'db.operation': 'SELECT',
    });
    // Neither keys, values nor statements' parameters are recorded.
    expect(JSON.stringify(children.map((s) => s.attributes))).not.toMatch(/"v"|trace:/);
  });
});
