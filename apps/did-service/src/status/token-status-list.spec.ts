import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeProtectedHeader, exportJWK, importX509, jwtVerify } from 'jose';
import { ES256, digest } from '@sd-jwt/crypto-nodejs';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { trustAnchorsFrom, verifyCertificateChain, X509Certificate } from '@itp/x509';
import {
  HARNESS_PUBLIC_URL,
  startDidHarness,
  statusListPath,
  type DidHarness,
} from '../testing/did-harness.js';
import {
  createTestSdJwtIssuerKey,
  issueTestSdJwtVc,
  TestSdJwtIssuerKeys,
  type TestSdJwtIssuerKey,
} from '../testing/test-sd-jwt-issuer-key.js';
import {
  HARNESS_SD_JWT_ISSUER as SD_JWT_ISSUER,
  issueHarnessSdJwtVc,
} from '../testing/issue-harness-sd-jwt-vc.js';
import { StatusIndexAllocator } from './status-index-allocator.js';
import type { TokenStatusEntry } from './token-status-lists.js';
import { TokenStatusListPublisher } from './token-status-list-publisher.js';
import { tokenListIdOf } from './token-status-list-urls.js';

const MAX_AGE = 120;

// Revocation of SD-JWT VCs through the IETF Token Status List on one did-service (real
// PostgreSQL, Redis, dev chain) with a test SD-JWT issuer key: the entries, the public status
// list token (what a wallet or verifier fetches and checks with @sd-jwt/jwt-status-list and the
// x5c leaf key), revoke-vc { sdJwt } and its refusals, a password reset, and a key change.
describe('IETF token status lists (SD-JWT VCs)', () => {
  let h: DidHarness;
  let key: TestSdJwtIssuerKey;
  let keys: TestSdJwtIssuerKeys;
  const bearer = async (userId: string) => ({
    authorization: `Bearer ${await h.auth.tokenFor(userId)}`,
  });

  /** An SD-JWT VC for `userId` as OpenID4VCI issues it: an entry, signed by the current key. */
  const issue = (userId: string, signer: TestSdJwtIssuerKey = key) =>
    issueHarnessSdJwtVc(h, userId, signer);
  const fetchList = (uri: string, headers: Record<string, string> = {}) =>
    fetch(`${h.url}${statusListPath(uri)}`, { headers });
  /** The token verified as a third party does: signature by the x5c leaf, chain to the CA. */
  const verifiedToken = async (jwt: string, anchorPem = key.caPem) => {
    const { x5c } = decodeProtectedHeader(jwt) as { x5c: string[] };
    const { publicKey } = await verifyCertificateChain(x5c, trustAnchorsFrom([anchorPem]));
    return jwtVerify(jwt, publicKey, { typ: 'statuslist+jwt', algorithms: ['ES256'] });
  };
  const bitOf = async (entry: TokenStatusEntry): Promise<number> => {
    const res = await fetchList(entry.uri);
    expect(res.status).toBe(200);
    const jwt = await res.text();
    await verifiedToken(jwt, (await keys.trustAnchorsPem())[0]);
    return getListFromStatusListJWT(jwt).getStatus(entry.idx);
  };
  const revoke = async (body: unknown, userId: string) =>
    h.post('/v2/did/revoke-vc', body, await bearer(userId));

  beforeAll(async () => {
    key = await createTestSdJwtIssuerKey({ publicUrl: HARNESS_PUBLIC_URL });
    keys = new TestSdJwtIssuerKeys(key);
    h = await startDidHarness(
      { USER_STATUS_CACHE_MS: '0', STATUS_LIST_MAX_AGE_SECONDS: String(MAX_AGE) },
      { sdJwtIssuerKeys: keys },
    );
  });
  afterAll(() => h.close());

  describe('GET /v2/did/token-status-lists/:listId', () => {
    it('answers a statuslist+jwt signed by the issuer key (x5c), sub = its uri, bit 0, cacheable', async () => {
      const { entry } = await issue('alice');
      expect(entry.uri).toMatch(
        new RegExp(`^${HARNESS_PUBLIC_URL}/v2/did/token-status-lists/[A-Za-z0-9_-]{22}$`),
      );
      const res = await fetchList(entry.uri);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/statuslist+jwt');
      expect(res.headers.get('cache-control')).toBe(`public, max-age=${MAX_AGE}`);
      expect(res.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
      const jwt = await res.text();
      const { payload, protectedHeader } = await verifiedToken(jwt);
      expect(protectedHeader).toEqual({ alg: 'ES256', typ: 'statuslist+jwt', x5c: key.x5c });
      const now = Math.floor(Date.now() / 1000);
      expect(payload).toEqual({
        sub: entry.uri,
        iat: expect.any(Number),
        exp: expect.any(Number),
        ttl: MAX_AGE,
        status_list: { bits: 1, lst: expect.stringMatching(/^[A-Za-z0-9_-]+$/) },
      });
      // Served late in its window and cached for ttl, it is still unexpired.
      expect(payload.iat).toBeLessThanOrEqual(now);
      expect(payload.exp! - payload.iat!).toBe(2 * MAX_AGE);
      expect(payload.exp!).toBeGreaterThanOrEqual(now + MAX_AGE);
      const list = getListFromStatusListJWT(jwt);
      expect(list.statusList.length).toBe(131_072);
      expect(list.getStatus(entry.idx)).toBe(0);
      // The leaf is the issuer key.
      const leafJwk = await exportJWK(
        await importX509(
          new X509Certificate(Buffer.from(key.x5c[0]!, 'base64')).toString('pem'),
          'ES256',
          { extractable: true },
        ),
      );
      expect([leafJwk.x, leafJwk.y]).toEqual([key.publicJwk.x, key.publicJwk.y]);
    });

    it('answers the same token again and 304 to its ETag; every replica builds the same ETag', async () => {
      const { entry } = await issue('alice');
      const first = await fetchList(entry.uri);
      const jwt = await first.text();
      const etag = first.headers.get('etag') as string;
      const signatures = h.app.tokenStatusPublisher.signatures;
      const again = await fetchList(entry.uri);
      expect(await again.text()).toBe(jwt);
      expect(h.app.tokenStatusPublisher.signatures).toBe(signatures);
      for (const tag of [etag, etag.replace(/^W\//, ''), `"x", ${etag}`, '*']) {
        const cached = await fetchList(entry.uri, { 'if-none-match': tag });
        expect(cached.status).toBe(304);
        expect(await cached.text()).toBe('');
      }
      expect((await fetchList(entry.uri, { 'if-none-match': '"other"' })).status).toBe(200);
      // Another replica (its own publisher, same database and key) in the same window.
      const { iat } = (await verifiedToken(jwt)).payload;
      const replica = new TokenStatusListPublisher({
        store: h.app.statusLists,
        keys,
        maxAgeSeconds: MAX_AGE,
        now: () => iat! * 1000,
      });
      const other = await replica.current(tokenListIdOf(entry.uri) as string);
      expect(other?.jwt).not.toBe(jwt); // ECDSA: another signature
      expect(other?.etag).toBe(etag);
      expect(getListFromStatusListJWT(other!.jwt).statusList).toEqual(
        getListFromStatusListJWT(jwt).statusList,
      );
    });

    it('404 for an unknown list, a malformed id, a W3C list; a token list is not served as a W3C list', async () => {
      const { entry } = await issue('alice');
      const missing = await h.get('/v2/did/token-status-lists/AAAAAAAAAAAAAAAAAAAAAA');
      expect([missing.status, missing.body]).toEqual([
        404,
        { error: { code: '404', message: 'No such status list' } },
      ]);
      expect((await fetch(`${h.url}/v2/did/token-status-lists/not-an-id`)).status).toBe(404);
      // A W3C list of create-vc's issuer DID.
      const issuerDid = (await h.get('/v2/did/issuers')).body[0].did as string;
      const { listId: w3c } = await new StatusIndexAllocator(h.app.statusLists, 131_072).allocate(
        issuerDid,
        'alice',
      );
      expect((await fetch(`${h.url}/v2/did/token-status-lists/${w3c}`)).status).toBe(404);
      expect((await fetch(`${h.url}/v2/did/status-lists/${w3c}`)).status).toBe(200);
      const tokenListId = tokenListIdOf(entry.uri) as string;
      expect((await fetch(`${h.url}/v2/did/status-lists/${tokenListId}`)).status).toBe(404);
    });
  });

  describe('POST /v2/did/revoke-vc { sdJwt }', () => {
    it('sets the bit: 0 before, 1 after; with or without disclosures; twice answers the same', async () => {
      const { entry, sdJwt } = await issue('alice');
      expect(sdJwt).toContain('~');
      expect(await bitOf(entry)).toBe(0);
      const before = (await fetchList(entry.uri)).headers.get('etag');
      const res = await revoke({ sdJwt }, 'alice');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        revoked: true,
        statusListCredential: entry.uri,
        statusListIndex: String(entry.idx),
      });
      expect(await bitOf(entry)).toBe(1);
      expect((await fetchList(entry.uri)).headers.get('etag')).not.toBe(before);
      // Again, and as the issuer-signed JWT alone.
      expect((await revoke({ sdJwt }, 'alice')).body).toEqual(res.body);
      expect((await revoke({ sdJwt: sdJwt.split('~')[0] }, 'alice')).status).toBe(200);

      const other = await issue('alice');
      expect((await revoke({ sdJwt: other.sdJwt.split('~')[0] }, 'alice')).status).toBe(200);
      expect(await bitOf(other.entry)).toBe(1);
    });

    it('a verifier using @sd-jwt/sd-jwt-vc’s own status check accepts the VC, then refuses it once revoked', async () => {
      const { sdJwt } = await issue('alice');
      const verify = await ES256.getVerifier(key.publicJwk);
      const fetched: string[] = [];
      const verifier = new SDJwtVcInstance({
        hasher: digest,
        // The VC and its status list token: both signed by the issuer key.
        verifier: verify,
        statusListFetcher: async (uri) => {
          fetched.push(uri);
          const res = await fetchList(uri, { accept: 'application/statuslist+jwt' });
          expect(res.headers.get('content-type')).toBe('application/statuslist+jwt');
          return res.text();
        },
      });
      await expect(verifier.verify(sdJwt)).resolves.toMatchObject({
        payload: { iss: SD_JWT_ISSUER, sub: 'alice' },
      });
      expect((await revoke({ sdJwt }, 'alice')).status).toBe(200);
      await expect(verifier.verify(sdJwt)).rejects.toThrow('Status is not valid');
      expect(fetched).toHaveLength(2);
    });

    it('another user’s SD-JWT VC: 403, the bit stays 0', async () => {
      const { entry, sdJwt } = await issue('alice');
      const res = await revoke({ sdJwt }, 'bob');
      expect(res.status).toBe(403);
      expect(await bitOf(entry)).toBe(0);
    });

    it('needs a bearer: 401', async () => {
      const { sdJwt } = await issue('alice');
      expect((await h.post('/v2/did/revoke-vc', { sdJwt })).status).toBe(401);
    });

    it('a tampered or forged SD-JWT: 400, never 500, nothing revoked', async () => {
      const victim = await issue('bob');
      const { sdJwt } = await issue('alice');
      const [jwt, ...rest] = sdJwt.split('~');
      const [header, payload, signature] = jwt!.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
      // alice's signed VC with bob's entry put in: the signature no longer matches.
      claims.status.status_list = victim.entry;
      const swapped = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
      // Signed by another key with the service's x5c in the header.
      const stranger = await createTestSdJwtIssuerKey({ publicUrl: HARNESS_PUBLIC_URL });
      const forged = await issueTestSdJwtVc(
        { ...stranger, x5c: key.x5c },
        { iss: SD_JWT_ISSUER, sub: 'bob', status: { status_list: victim.entry } },
      );
      // Signed by another key with its own chain.
      const foreign = await issueTestSdJwtVc(stranger, {
        iss: SD_JWT_ISSUER,
        status: { status_list: victim.entry },
      });
      // Signed by the service's key, but naming another certificate as x5c.
      const otherLeaf = await issueTestSdJwtVc(
        { ...key, x5c: stranger.x5c },
        { iss: SD_JWT_ISSUER, status: { status_list: victim.entry } },
      );
      const NOT_OURS = /does not verify as signed by this service/;
      const cases: Array<[unknown, RegExp]> = [
        [{ sdJwt: [swapped, ...rest].join('~') }, NOT_OURS],
        [{ sdJwt: `${jwt}x~` }, NOT_OURS],
        [{ sdJwt: forged }, NOT_OURS],
        [{ sdJwt: foreign }, NOT_OURS],
        [{ sdJwt: otherLeaf }, /x5c certificate is not this service/],
        [{ sdJwt: 'a.b.c~' }, NOT_OURS],
        [{ sdJwt: 'eyJhbGciOiJFUzI1NiJ9.e30.' }, /SD-JWT/],
        [{ sdJwt: 'not an sd-jwt' }, /SD-JWT/],
        [{ sdJwt: 42 }, /sdJwt/],
        [{ sdJwt: '' }, /SD-JWT/],
        [{ sdJwt, jwt }, /exactly one of vc and jwt \(or sdJwt/],
      ];
      for (const [body, message] of cases) {
        const res = await revoke(body, 'bob');
        expect([res.status, res.body.error.code]).toEqual([400, '400']);
        expect(res.body.error.message).toMatch(message);
      }
      expect(await bitOf(victim.entry)).toBe(0);
    });

    it('signed by the service key but without an entry of its token lists: 400', async () => {
      const { entry } = await issue('alice');
      const listId = tokenListIdOf(entry.uri) as string;
      const issuerDid = (await h.get('/v2/did/issuers')).body[0].did as string;
      const w3cList = await h.app.statusLists.currentList(issuerDid);
      const claims = [
        {}, // no status
        { status: { status_list: { idx: entry.idx, uri: `https://evil.test/x/${listId}` } } },
        { status: { status_list: { idx: -1, uri: entry.uri } } },
        { status: { status_list: { idx: 1.5, uri: entry.uri } } },
        { status: { status_list: { idx: '3', uri: entry.uri } } },
        { status: { status_list: { idx: 2 ** 40, uri: entry.uri } } },
        { status: { status_list: { idx: (entry.idx + 1) % 131_072, uri: entry.uri } } },
        { status: { status_list: entry }, iss: 'https://other.example/v2/did/oid4vci' },
        ...(w3cList
          ? [
              {
                status: {
                  status_list: {
                    idx: 0,
                    uri: `${HARNESS_PUBLIC_URL}/v2/did/token-status-lists/${w3cList.id}`,
                  },
                },
              },
            ]
          : []),
      ];
      for (const extra of claims) {
        const sdJwt = await issueTestSdJwtVc(key, {
          iss: SD_JWT_ISSUER,
          ...(extra as object),
        });
        const res = await revoke({ sdJwt }, 'alice');
        expect([res.status, res.body.error.message]).toEqual([
          400,
          'The credential has no token status list entry of this service: it cannot be revoked',
        ]);
      }
      // The status list token itself (signed by the same key) is no SD-JWT VC.
      const token = await (await fetchList(entry.uri)).text();
      const notVc = await revoke({ sdJwt: token }, 'alice');
      expect([notVc.status, notVc.body.error.message]).toEqual([
        400,
        'The JWT is no SD-JWT VC (typ dc+sd-jwt or vc+sd-jwt)',
      ]);
      expect(await bitOf(entry)).toBe(0);
    });

    it('the W3C forms do not revoke an SD-JWT VC entry (the kinds stay apart)', async () => {
      const { entry, sdJwt } = await issue('alice');
      const res = await revoke({ jwt: sdJwt.split('~')[0] }, 'alice');
      expect(res.status).toBe(400);
      expect(await bitOf(entry)).toBe(0);
    });
  });

  it('a password reset (users/revoke-credentials) sets the bits of the user’s SD-JWT VCs', async () => {
    const mine = [await issue('carol'), await issue('carol')];
    const theirs = await issue('dave');
    const res = await h.postInternal('/internal/v1/users/revoke-credentials', {
      userId: 'carol',
      issuedBefore: Math.floor(Date.now() / 1000) + 1,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 2 });
    for (const { entry } of mine) expect(await bitOf(entry)).toBe(1);
    expect(await bitOf(theirs.entry)).toBe(0);
  });

  it('after a certificate renewal or a key import, a list fetched afterwards is signed by the new key and chain', async () => {
    const { entry, sdJwt } = await issue('erin');
    const older = await issue('erin');
    const before = await (await fetchList(entry.uri)).text();
    try {
      // Renewal: a new leaf (new key) under the same CA.
      const renewed = await createTestSdJwtIssuerKey({ publicUrl: HARNESS_PUBLIC_URL, ca: key.ca });
      keys.use(renewed);
      const jwt = await (await fetchList(entry.uri)).text();
      expect(jwt).not.toBe(before);
      expect(decodeProtectedHeader(jwt).x5c).toEqual(renewed.x5c);
      expect((await verifiedToken(jwt, renewed.caPem)).payload.sub).toBe(entry.uri);
      // SD-JWT VCs signed by the new key, and by the earlier key while it is published, are
      // revocable.
      const fresh = await issue('erin', renewed);
      expect((await revoke({ sdJwt: fresh.sdJwt }, 'erin')).status).toBe(200);
      expect(await bitOf(fresh.entry)).toBe(1);
      expect((await revoke({ sdJwt }, 'erin')).status).toBe(200);
      expect(await bitOf(entry)).toBe(1);

      // Import: another key under another CA; the first key is no longer published (expired).
      const imported = await createTestSdJwtIssuerKey({ publicUrl: HARNESS_PUBLIC_URL });
      keys.use(imported);
      keys.retire(key);
      const afterImport = await (await fetchList(entry.uri)).text();
      expect(decodeProtectedHeader(afterImport).x5c).toEqual(imported.x5c);
      const verified = await verifiedToken(afterImport, imported.caPem);
      expect(verified.payload.sub).toBe(entry.uri);
      expect(getListFromStatusListJWT(afterImport).getStatus(entry.idx)).toBe(1);
      expect(getListFromStatusListJWT(afterImport).getStatus(older.entry.idx)).toBe(0);
      // A VC signed by a key no longer published: not revocable here (a reset still revokes it).
      const refused = await revoke({ sdJwt: older.sdJwt }, 'erin');
      expect([refused.status, refused.body.error.message]).toEqual([
        400,
        'The SD-JWT does not verify as signed by this service’s SD-JWT issuer key',
      ]);
      expect(await bitOf(older.entry)).toBe(0);
    } finally {
      keys.use(key);
    }
  });

  it('issuance off (no SD-JWT issuer key): lists 404, revoke-vc { sdJwt } 400', async () => {
    const { entry, sdJwt } = await issue('frank');
    const off = await h.buildWith({});
    try {
      const { url } = await off.service.listen();
      expect((await fetch(`${url}${statusListPath(entry.uri)}`)).status).toBe(404);
      const res = await fetch(`${url}/v2/did/revoke-vc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(await bearer('frank')) },
        body: JSON.stringify({ sdJwt }),
      });
      expect(res.status).toBe(400);
    } finally {
      await off.service.close();
    }
    expect(await bitOf(entry)).toBe(0);
  });
});
