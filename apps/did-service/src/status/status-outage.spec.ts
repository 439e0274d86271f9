import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTcpProxy, type TcpProxy } from '@itp/harness';
import { createTestDatabase, waitFor, type TestDatabase } from '@itp/testing';
import { startDidHarness, statusListPath, type DidHarness } from '../testing/did-harness.js';

// did-service on a PostgreSQL reached through a TCP relay that is cut: a status that cannot be
// read is `status_unavailable` (verified false, HTTP 200; a refused VP login), never a 500; the
// writes and the list answer 503; all is back once the database is.
describe('credential status while the database is down', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let h: DidHarness;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let vc: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let vp: any;
  let auth: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase();
    proxy = await startTcpProxy(new URL(db.url).host);
    h = await startDidHarness({ DATABASE_URL: proxy.proxiedUrl(db.url) });
    const issuer = (await h.get('/v2/did/issuers')).body[0].did;
    const verifier = (await h.get('/v2/did/verifiers')).body[0].did;
    const account = h.wallet.createAddress();
    auth = { authorization: `Bearer ${await h.auth.tokenFor('erin')}` };
    const holder = (
      await h.post(
        '/v2/did/create-did',
        { alias: 'erin', address: account.address, secretKey: account.secretKey },
        auth,
      )
    ).body.did;
    vc = (await h.post('/v2/did/create-vc', { holder, issuer, userInfo: {} }, auth)).body;
    vp = (await h.post('/v2/did/create-vp', { holder, verifier, credentials: [vc] }, auth)).body;
  });
  afterAll(async () => {
    await h.close();
    await proxy.close();
    await db.drop();
  });

  it('answers status_unavailable (never a 500) and recovers', async () => {
    expect((await h.post('/v2/did/verify-vc', vc)).body.verified).toBe(true);
    await proxy.cut();

    const checked = await h.post('/v2/did/verify-vc', vc);
    expect(checked.status).toBe(200);
    expect(checked.body.verified).toBe(false);
    expect(checked.body.error.code).toBe('status_unavailable');
    expect(checked.body.error.message).toMatch(/cannot be read now/);
    const presented = await h.post('/v2/did/verify-vp', vp);
    expect([presented.status, presented.body.error?.code]).toEqual([200, 'status_unavailable']);
    const login = await h.postInternal('/internal/v1/verify-login-vp', { vp });
    expect(login.status).toBe(401);
    expect(login.body.error.message).toMatch(/^VP refused \(status_unavailable\)/);

    const revoke = await h.post('/v2/did/revoke-vc', { vc }, auth);
    expect([revoke.status, revoke.body.error.code]).toEqual([503, '503']);
    const list = await h.get(statusListPath(vc.credentialStatus.statusListCredential));
    expect([list.status, list.body.error.code]).toEqual([503, '503']);

    await proxy.restore();
    const back = await waitFor(
      async () => ((await h.post('/v2/did/verify-vc', vc)).body.verified ? true : undefined),
      { what: 'verify-vc answering verified true again', timeoutMs: 10_000, intervalMs: 50 },
    );
    expect(back).toBe(true);
  });
});
