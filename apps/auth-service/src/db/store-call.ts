import { toStoreError } from '@itp/stores';

/** Runs a database call; an outage becomes a 503 (ServiceUnavailableError), anything else stays. */
export async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toStoreError('database', err);
  }
}
