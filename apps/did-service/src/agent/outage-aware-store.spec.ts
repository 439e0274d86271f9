import { afterEach, describe, expect, it } from '@jest/globals';
import type { IIdentifier } from '@veramo/core';
import { DIDStore, Identifier } from '@veramo/data-store';
import type { AbstractDIDStore } from '@veramo/did-manager';
import type { DataSource } from 'typeorm';
import { ServiceUnavailableError } from '@itp/errors';
import { startTcpProxy, type TcpProxy } from '@itp/harness';
import { isStoreUnavailable } from '@itp/stores';
import { createTestDatabase, waitFor, type TestDatabase } from '@itp/testing';
import { outageAwareStore } from './outage-aware-store.js';
import { openVeramoDataSource } from './veramo-data-source.js';

/**
 * Veramo's stores on a real PostgreSQL behind a TCP relay that is cut: what create-did and the
 * credential endpoints meet when the database goes away (the resilience suite's postgres-stop
 * once answered create-did with 500 "Internal error").
 */
describe('outageAwareStore: Veramo stores on a PostgreSQL that goes away', () => {
  let testDb: TestDatabase | undefined;
  let proxy: TcpProxy | undefined;
  let dataSource: DataSource | undefined;
  afterEach(async () => {
    await dataSource?.destroy().catch(() => undefined);
    await proxy?.close();
    await testDb?.drop();
    dataSource = undefined;
    proxy = undefined;
    testDb = undefined;
  });

  const identifier = (did: string): IIdentifier => ({
    did,
    provider: 'did:ethr',
    keys: [],
    services: [],
  });

  it('an outage is a ServiceUnavailableError, whatever typeorm throws; "not found" is not', async () => {
    testDb = await createTestDatabase();
    proxy = await startTcpProxy(new URL(testDb.url).host);
    dataSource = await openVeramoDataSource(proxy.proxiedUrl(testDb.url), { poolSize: 4 });
    const store = outageAwareStore<AbstractDIDStore>(new DIDStore(dataSource));
    expect(store).toBeInstanceOf(DIDStore);

    await store.importDID(identifier('did:ethr:0x1'));
    expect((await store.getDID({ did: 'did:ethr:0x1' })).did).toBe('did:ethr:0x1');
    await expect(store.getDID({ did: 'did:ethr:0x2' })).rejects.toThrow('Identifier not found');

    // Writes in flight when the connection is cut, and reads and writes while it stays down.
    const writes = Array.from({ length: 6 }, (_, i) =>
      store.importDID(identifier(`did:ethr:0xa${i}`)).then(
        () => undefined,
        (err: unknown) => err,
      ),
    );
    await proxy.cut();
    const failures = [
      ...(await Promise.all(writes)),
      await store.getDID({ did: 'did:ethr:0x1' }).catch((err: unknown) => err),
      await store.importDID(identifier('did:ethr:0xb')).catch((err: unknown) => err),
      await store.listDIDs({}).catch((err: unknown) => err),
    ].filter((err) => err !== undefined);
    expect(failures.length).toBeGreaterThanOrEqual(3);
    for (const err of failures) {
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect(isStoreUnavailable(err, 'database')).toBe(true);
    }

    // Back: the same store works again and nothing committed was lost.
    await proxy.restore();
    const back = await waitFor(
      () =>
        store.getDID({ did: 'did:ethr:0x1' }).then(
          (found) => found.did,
          () => undefined,
        ),
      { what: 'the store answering again', timeoutMs: 5_000, intervalMs: 25 },
    );
    expect(back).toBe('did:ethr:0x1');
    expect(await dataSource.getRepository(Identifier).count()).toBeGreaterThanOrEqual(1);
  });
});
