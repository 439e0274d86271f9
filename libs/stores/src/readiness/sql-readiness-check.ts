import type { ReadinessCheck } from '@itp/service-kit';
import type { SqlDatabase } from '../sql/sql-database.js';

/** `database`: ready while the database answers `select 1`. */
export function sqlReadinessCheck<DB>(database: SqlDatabase<DB>): ReadinessCheck {
  return { name: 'database', check: () => database.ping() };
}
