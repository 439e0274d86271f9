import { toStoreError } from '@itp/stores';

/**
 * `store` (one of Veramo's typeorm stores: DIDStore, KeyStore, PrivateKeyStore) with every
 * method's failure passed through the one store-outage classifier of @itp/stores: PostgreSQL or
 * SQLite being down becomes ServiceUnavailableError (REST 503 + Retry-After), the way
 * openSqlDatabase does it for the service's own tables; any other error (Veramo's "Identifier
 * not found", a constraint violation) is passed on unchanged. typeorm owns these connections,
 * so the translation sits at the store, the narrowest place that only talks to the database.
 */
export function outageAwareStore<T extends object>(store: T): T {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || property === 'constructor') return value;
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (err) {
          throw toStoreError('database', err);
        }
      };
    },
  });
}
