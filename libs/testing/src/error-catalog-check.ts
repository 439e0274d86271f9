import { expect } from '@jest/globals';
import { BaseError } from '@itp/errors';
import type { RestErrorDoc, ServiceErrorDoc } from '@itp/schemas';

type ErrorClass = (new (...args: never[]) => BaseError) & { code: string; name: string };

/** The BaseError subclasses a module (an app's errors.ts) exports. */
export function errorClassesOf(module: Record<string, unknown>): ErrorClass[] {
  return Object.values(module).filter(
    (value): value is ErrorClass =>
      typeof value === 'function' && value.prototype instanceof BaseError,
  );
}

function instanceOf(Class: ErrorClass): BaseError {
  // Every error class of the apps takes a message (or an identifier) first; the status is an
  // instance field, so one instance is needed to read it.
  return new (Class as unknown as new (message: string, retryAfter?: number) => BaseError)(
    'probe',
    1,
  );
}

/**
 * Every error class of a REST API is in its catalog with the same HTTP status and `error.code`:
 * the catalog (from which the README table and the API documents are generated) can't miss or
 * misstate an error the code throws.
 */
export function expectRestErrorsInCatalog(
  module: Record<string, unknown>,
  catalog: Record<string, RestErrorDoc>,
): void {
  const classes = errorClassesOf(module);
  expect(classes.length).toBeGreaterThan(0);
  const documented = new Set(Object.values(catalog).map((e) => `${e.status} ${e.code}`));
  const missing = classes
    .map((Class) => ({ name: Class.name, pair: `${instanceOf(Class).status} ${Class.code}` }))
    .filter(({ pair }) => !documented.has(pair));
  expect(missing).toEqual([]);
}

/** Every error class of a JSON-RPC API has its resultCode in the catalog. */
export function expectServiceErrorsInCatalog(
  module: Record<string, unknown>,
  catalog: Record<string, ServiceErrorDoc> | ServiceErrorDoc[],
): void {
  const classes = errorClassesOf(module);
  expect(classes.length).toBeGreaterThan(0);
  const documented = new Set(Object.values(catalog).map((e) => e.resultCode));
  const missing = classes
    .filter((Class) => !documented.has(Class.code))
    .map((Class) => `${Class.name} ${Class.code}`);
  expect(missing).toEqual([]);
}
