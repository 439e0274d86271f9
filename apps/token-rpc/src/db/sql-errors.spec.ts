import { describe, expect, it } from '@jest/globals';
import type { ServiceUnavailableError } from '@itp/errors';
import { InternalError } from '@itp/errors';
import { isStoreUnavailable, openSqlDatabase } from '@itp/stores';
import { freePort } from '@itp/testing';
import { UnknownAddressError } from '../errors.js';
import { sqlCall, toDatabaseError } from './sql-errors.js';

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('database errors', () => {
  it('turns connection-level failures of PostgreSQL and SQLite into "503", without the address', () => {
    const refused = toDatabaseError(
      'q',
      withCode('connect ECONNREFUSED 10.0.0.5:5432', 'ECONNREFUSED'),
    );
    expect(isStoreUnavailable(refused, 'database')).toBe(true);
    expect((refused as ServiceUnavailableError).code).toBe('503');
    expect(refused.message).toBe('Database unavailable: connection failed (ECONNREFUSED)');
    const locked = toDatabaseError('q', withCode('database is locked', 'SQLITE_BUSY'));
    expect(locked.message).toBe(
      'Database unavailable: the database file is not usable (SQLITE_BUSY)',
    );
  });

  it('leaves query errors (constraints, syntax, raised exceptions) as internal failures', () => {
    for (const code of ['23505', '42601', 'P0001', '40001']) {
      expect(toDatabaseError('q', withCode('x', code))).toBeInstanceOf(InternalError);
    }
    const passed = new UnknownAddressError('0x00');
    expect(toDatabaseError('q', passed)).toBe(passed);
  });

  it('answers 503 "Database unavailable" for a PostgreSQL that cannot be reached', async () => {
    const database = openSqlDatabase(`postgres://postgres@127.0.0.1:${await freePort()}/none`);
    try {
      const err = await sqlCall('ping', () => database.ping()).catch((e: unknown) => e);
      expect(isStoreUnavailable(err, 'database')).toBe(true);
      expect((err as ServiceUnavailableError).code).toBe('503');
      expect((err as Error).message).toBe('Database unavailable: connection failed (ECONNREFUSED)');
    } finally {
      await database.close();
    }
  });
});
