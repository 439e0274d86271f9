import { describe, expect, it } from '@jest/globals';
import { InternalError } from '@itp/errors';
import { openSqlDatabase } from '@itp/stores';
import { freePort } from '@itp/testing';
import { DatabaseUnavailableError, UnknownAddressError } from '../errors.js';
import { databaseUnavailableReason, sqlCall, toDatabaseError } from './sql-errors.js';

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('database errors', () => {
  it('recognises connection-level failures of pg, pg-pool and SQLite, without the address', () => {
    expect(
      databaseUnavailableReason(withCode('connect ECONNREFUSED 10.0.0.5:5432', 'ECONNREFUSED')),
    ).toBe('connection failed (ECONNREFUSED)');
    expect(
      databaseUnavailableReason(
        Object.assign(new AggregateError([withCode('x', 'ECONNREFUSED')], 'connect failed'), {}),
      ),
    ).toBe('connection failed (ECONNREFUSED)');
    expect(databaseUnavailableReason(new Error('Connection terminated unexpectedly'))).toBe(
      'connection lost',
    );
    expect(databaseUnavailableReason(new Error('timeout exceeded when trying to connect'))).toBe(
      'no connection within the timeout',
    );
    for (const code of ['57P01', '08006', '3D000', '53300', '28P01']) {
      expect(databaseUnavailableReason(withCode('x', code))).toBe(
        `the database server refused the session (${code})`,
      );
    }
    expect(databaseUnavailableReason(withCode('database is locked', 'SQLITE_BUSY'))).toMatch(
      /SQLITE_BUSY/,
    );
    expect(
      databaseUnavailableReason(new Error('wrapped', { cause: withCode('x', 'ECONNRESET') })),
    ).toBe('connection failed (ECONNRESET)');
  });

  it('leaves query errors (constraints, syntax, raised exceptions) as internal failures', () => {
    for (const code of ['23505', '42601', 'P0001', '40001']) {
      expect(databaseUnavailableReason(withCode('x', code))).toBeNull();
      expect(toDatabaseError('q', withCode('x', code))).toBeInstanceOf(InternalError);
    }
    const passed = new UnknownAddressError('0x00');
    expect(toDatabaseError('q', passed)).toBe(passed);
  });

  it('answers 503 "Database unavailable" for a PostgreSQL that cannot be reached', async () => {
    const database = openSqlDatabase(`postgres://postgres@127.0.0.1:${await freePort()}/none`);
    try {
      const err = await sqlCall('ping', () => database.ping()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseUnavailableError);
      expect((err as DatabaseUnavailableError).code).toBe('503');
      expect((err as Error).message).toBe('Database unavailable: connection failed (ECONNREFUSED)');
    } finally {
      await database.close();
    }
  });
});
