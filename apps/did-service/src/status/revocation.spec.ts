import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeList } from '@digitalbazaar/vc-bitstring-status-list';
import { verifyCredential } from 'did-jwt-vc';
import { statusListCredentialSchema } from '@itp/schemas';
import {
  HARNESS_PUBLIC_URL,
  startDidHarness,
  statusListPath,
  type DidHarness,
} from '../testing/did-harness.js';
import { decodePayload, foreignCredential } from '../testing/jwt-tampering.js';
import { CredentialStatusChecker } from './credential-status.js';
import { StatusListUrls } from './status-list-urls.js';
import { thirdPartyResolver } from '../testing/third-party-resolver.js';

const CREDENTIALS_V1 = 'https://www.w3.org/2018/credentials/v1';
const STATUS_V1 = 'https://www.w3.org/ns/credentials/status/v1';
const LIST_URL = new RegExp(`^${HARNESS_PUBLIC_URL}/v2/did/status-lists/[A-Za-z0-9_-]{22}$`);

// Revocation end to end on one did-service (real PostgreSQL, Redis and dev chain): the status
// entry create-vc writes, the public status list (what a third party fetches and checks with
// standard tools), revoke-vc, and every verification path seeing a revocation at once.
describe('revocation (W3C Bitstring Status List)', () => {
  let h: DidHarness;
  let issuer: string;
  let verifier: string;
  let alice: { did: string; auth: Record<string, string> };
  let bob: { did: string; auth: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Vc = any;

  async function holder(userId: string) {
    const account = h.wallet.createAddress();
    const auth = { authorization: `Bearer ${await h.auth.tokenFor(userId)}` };
    const res = await h.post(
      '/v2/did/create-did',
      { alias: `${userId}-phone`, address: account.address, secretKey: account.secretKey },
      auth,
    );
    expect(res.status).toBe(200);
    return { did: res.body.did as string, auth };
  }
  const issue = async (who: { did: string; auth: Record<string, string> }): Promise<Vc> => {
    const res = await h.post(
      '/v2/did/create-vc',
      { holder: who.did, issuer, userInfo: { name: 'X' } },
      who.auth,
    );
    expect(res.status).toBe(200);
    return res.body;
  };
  const fetchList = (listUrl: string, headers: Record<string, string> = {}) =>
    fetch(`${h.url}${statusListPath(listUrl)}`, { headers });
  const bitOf = async (vc: Vc): Promise<boolean> => {
    const jwt = await (await fetchList(vc.credentialStatus.statusListCredential)).text();
    const { encodedList } = decodePayload(jwt).vc.credentialSubject;
    return (await decodeList({ encodedList })).getStatus(
      Number(vc.credentialStatus.statusListIndex),
    );
  };
  const resolver = () => thirdPartyResolver(h.config.DID_REGISTRY_ADDRESS ?? '');

  beforeAll(async () => {
    h = await startDidHarness({ USER_STATUS_CACHE_MS: '0', STATUS_LIST_MAX_AGE_SECONDS: '120' });
    issuer = (await h.get('/v2/did/issuers')).body[0].did;
    verifier = (await h.get('/v2/did/verifiers')).body[0].did;
    alice = await holder('alice');
    bob = await holder('bob');
  });
  afterAll(() => h.close());

  it('create-vc adds the status context and a revocation entry of the issuer’s list', async () => {
    const vc = await issue(alice);
    expect(vc['@context']).toEqual([CREDENTIALS_V1, STATUS_V1]);
    const { statusListCredential, statusListIndex } = vc.credentialStatus;
    expect(statusListCredential).toMatch(LIST_URL);
    expect(statusListIndex).toMatch(/^(0|[1-9][0-9]*)$/);
    expect(vc.credentialStatus).toEqual({
      id: `${statusListCredential}#${statusListIndex}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex,
      statusListCredential,
    });
    // In the JWT's claims (what verifiers read), and still a valid VC.
    expect(decodePayload(vc.proof.jwt).vc.credentialStatus).toEqual(vc.credentialStatus);
    expect((await h.post('/v2/did/verify-vc', vc)).body.verified).toBe(true);
  });

  describe('GET /v2/did/status-lists/:listId', () => {
    it('answers the list credential as a JWT signed by the issuer DID: a third party verifies it with did-jwt-vc', async () => {
      const vc = await issue(alice);
      const listUrl = vc.credentialStatus.statusListCredential as string;
      const res = await fetchList(listUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/vc+jwt');
      expect(res.headers.get('cache-control')).toBe('public, max-age=120');
      expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      const jwt = await res.text();
      const verified = await verifyCredential(jwt, resolver());
      expect(verified.verified).toBe(true);
      expect(verified.issuer).toBe(issuer);
      expect(verified.verifiableCredential).toMatchObject({
        '@context': [CREDENTIALS_V1, STATUS_V1],
        id: listUrl,
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: { id: issuer },
        credentialSubject: {
          id: `${listUrl}#list`,
          type: 'BitstringStatusList',
          statusPurpose: 'revocation',
          encodedList: expect.stringMatching(/^u[A-Za-z0-9_-]+$/),
        },
      });
      const list = await decodeList({
        encodedList: verified.verifiableCredential.credentialSubject.encodedList as string,
      });
      expect(list.length).toBe(131_072);
      expect(list.getStatus(Number(vc.credentialStatus.statusListIndex))).toBe(false);
      // Any Accept but JSON: the JWT.
      for (const accept of ['*/*', 'application/vc+jwt', 'text/html']) {
        const again = await fetchList(listUrl, { accept });
        expect([again.headers.get('content-type'), await again.text()]).toEqual([
          'application/vc+jwt',
          jwt,
        ]);
      }
    });

    it('answers the same credential as VC JSON with Accept: application/json, with its own ETag', async () => {
      const vc = await issue(alice);
      const listUrl = vc.credentialStatus.statusListCredential as string;
      const jwtAnswer = await fetchList(listUrl);
      const jwt = await jwtAnswer.text();
      const res = await fetchList(listUrl, { accept: 'application/json' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=120');
      expect(res.headers.get('vary')).toMatch(/Accept/);
      expect(res.headers.get('etag')).not.toBe(jwtAnswer.headers.get('etag'));
      const json = await res.json();
      expect(json).toEqual({
        '@context': [CREDENTIALS_V1, STATUS_V1],
        id: listUrl,
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: { id: issuer },
        issuanceDate: expect.any(String),
        credentialSubject: {
          id: `${listUrl}#list`,
          type: 'BitstringStatusList',
          statusPurpose: 'revocation',
          encodedList: decodePayload(jwt).vc.credentialSubject.encodedList,
        },
        proof: { type: 'JwtProof2020', jwt },
      });
      expect(statusListCredentialSchema.safeParse(json).success).toBe(true);
    });

    it('answers 304 to If-None-Match with the current ETag', async () => {
      const vc = await issue(alice);
      const listUrl = vc.credentialStatus.statusListCredential as string;
      for (const accept of ['application/vc+jwt', 'application/json']) {
        const first = await fetchList(listUrl, { accept });
        const etag = first.headers.get('etag') as string;
        const cached = await fetchList(listUrl, { accept, 'if-none-match': etag });
        expect(cached.status).toBe(304);
        expect(await cached.text()).toBe('');
        expect(cached.headers.get('etag')).toBe(etag);
        expect(cached.headers.get('cache-control')).toBe('public, max-age=120');
        const listed = await fetchList(listUrl, {
          accept,
          'if-none-match': `"other", W/${etag}`,
        });
        expect(listed.status).toBe(304);
        const stale = await fetchList(listUrl, { accept, 'if-none-match': '"not-it"' });
        expect(stale.status).toBe(200);
      }
    });

    it('answers 404 in the API’s error shape for an unknown or malformed list id', async () => {
      for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'x', 'a'.repeat(300), '..%2F..%2Fissuers']) {
        const res = await h.get(`/v2/did/status-lists/${id}`);
        expect([id, res.status, res.body]).toEqual([
          id,
          404,
          { error: { code: '404', message: 'No such status list' } },
        ]);
      }
    });
  });

  describe('POST /v2/did/revoke-vc', () => {
    it('revokes the caller’s VC for good: 200, again 200; the list shows the bit from its next revision', async () => {
      const vc = await issue(alice);
      const vcStays = await issue(alice);
      const listUrl = vc.credentialStatus.statusListCredential as string;
      expect(vcStays.credentialStatus.statusListCredential).toBe(listUrl);
      const before = await fetchList(listUrl);
      const etagBefore = before.headers.get('etag') as string;
      expect(await bitOf(vc)).toBe(false);

      const expected = {
        revoked: true,
        statusListCredential: listUrl,
        statusListIndex: vc.credentialStatus.statusListIndex,
      };
      const res = await h.post('/v2/did/revoke-vc', { vc }, alice.auth);
      expect([res.status, res.body]).toEqual([200, expected]);
      const again = await h.post('/v2/did/revoke-vc', { jwt: vc.proof.jwt }, alice.auth);
      expect([again.status, again.body]).toEqual([200, expected]);

      const after = await fetchList(listUrl, { 'if-none-match': etagBefore });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etagBefore);
      expect(await bitOf(vc)).toBe(true);
      expect(await bitOf(vcStays)).toBe(false);
      // The new list is signed by the issuer too.
      expect((await verifyCredential(await after.text(), resolver())).issuer).toBe(issuer);
    });

    it('signs each revision of a list once, whatever the number of requests', async () => {
      const vc = await issue(alice);
      const listUrl = vc.credentialStatus.statusListCredential as string;
      await fetchList(listUrl);
      const signed = h.app.statusPublisher.signatures;
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          fetchList(listUrl, { accept: i % 2 ? 'application/json' : '*/*' }),
        ),
      );
      expect(h.app.statusPublisher.signatures).toBe(signed);
      expect((await h.post('/v2/did/revoke-vc', { vc }, alice.auth)).status).toBe(200);
      await Promise.all(Array.from({ length: 6 }, () => fetchList(listUrl)));
      expect(h.app.statusPublisher.signatures).toBe(signed + 1);
      // Another instance on the same database (a replica) reuses the stored signature.
      const replica = await h.buildWith({});
      try {
        const jwt = await (await fetchList(listUrl)).text();
        const fromReplica = await replica.statusPublisher.current(
          listUrl.slice(listUrl.lastIndexOf('/') + 1),
        );
        expect(fromReplica?.jwt).toBe(jwt);
        expect(replica.statusPublisher.signatures).toBe(0);
      } finally {
        await replica.service.close();
      }
    });

    it('two replicas that sign a new revision at once both answer the one the database kept (one ETag)', async () => {
      const vc = await issue(bob);
      const listUrl = vc.credentialStatus.statusListCredential as string;
      const listId = listUrl.slice(listUrl.lastIndexOf('/') + 1);
      await fetchList(listUrl);
      const replica = await h.buildWith({});
      try {
        expect((await h.post('/v2/did/revoke-vc', { vc }, bob.auth)).status).toBe(200);
        const before = h.app.statusPublisher.signatures + replica.statusPublisher.signatures;
        const [mine, theirs] = await Promise.all([
          h.app.statusPublisher.current(listId),
          replica.statusPublisher.current(listId),
        ]);
        // Both met the revision unsigned and signed it (different issuance times) ...
        expect(h.app.statusPublisher.signatures + replica.statusPublisher.signatures).toBe(
          before + 2,
        );
        // ... and both answer the first one stored, as a later request does.
        expect(theirs!.hash).toBe(mine!.hash);
        const served = await fetchList(listUrl);
        expect(served.headers.get('etag')).toBe(`"${mine!.hash}"`);
        expect((await replica.statusPublisher.current(listId))!.hash).toBe(mine!.hash);
      } finally {
        await replica.service.close();
      }
    });

    it('needs the bearer of the user the VC was issued to (401 / 403)', async () => {
      const vc = await issue(alice);
      const none = await h.post('/v2/did/revoke-vc', { vc });
      expect([none.status, none.body.error.code]).toEqual([401, '401']);
      const other = await h.post('/v2/did/revoke-vc', { vc }, bob.auth);
      expect([other.status, other.body]).toEqual([
        403,
        {
          error: {
            code: '403',
            message: 'This credential was issued to another user: only that user can revoke it',
          },
        },
      ]);
      expect(await bitOf(vc)).toBe(false);
    });

    it('answers 400 for a VC that is not this service’s or has no status entry of it, and for a bad body', async () => {
      const foreign = await foreignCredential(alice.did, 'alice');
      const noEntry = await h.app.agent.createVerifiableCredential({
        proofFormat: 'jwt',
        credential: {
          '@context': [CREDENTIALS_V1],
          type: ['VerifiableCredential', 'Profile'],
          issuer: { id: issuer },
          issuanceDate: new Date().toISOString(),
          credentialSubject: { id: alice.did, sub: 'alice' },
        },
      });
      const vc = await issue(alice);
      const tampered = `${vc.proof.jwt.slice(0, -4)}AAAA`;
      const cases: Array<[unknown, RegExp]> = [
        [{ vc: foreign.json }, /not issued by this service/],
        [{ jwt: foreign.jwt }, /not issued by this service/],
        [{ vc: noEntry }, /no status entry of this service/],
        [{ jwt: tampered }, /does not verify/],
        [{}, /exactly one of vc and jwt/],
        [{ vc, jwt: vc.proof.jwt }, /exactly one of vc and jwt/],
        [{ jwt: 'not-a-jwt' }, /jwt/],
      ];
      for (const [body, message] of cases) {
        const res = await h.post('/v2/did/revoke-vc', body, alice.auth);
        expect([res.status, res.body.error.code]).toEqual([400, '400']);
        expect(res.body.error.message).toMatch(message);
      }
      expect(await bitOf(vc)).toBe(false);
    });
  });

  describe('verification sees a revocation at once', () => {
    it('verify-vc: revoked; create-vp refuses it; verify-vp and the VP login refuse a VP holding it', async () => {
      const vc = await issue(alice);
      const vp = (
        await h.post(
          '/v2/did/create-vp',
          { holder: alice.did, verifier, credentials: [vc] },
          alice.auth,
        )
      ).body;
      expect((await h.post('/v2/did/verify-vp', vp)).body.verified).toBe(true);
      // Cached by a verifier before the revocation: the service itself does not wait for max-age.
      await fetchList(vc.credentialStatus.statusListCredential);
      expect((await h.post('/v2/did/revoke-vc', { vc }, alice.auth)).status).toBe(200);

      const checked = await h.post('/v2/did/verify-vc', vc);
      expect([checked.status, checked.body]).toEqual([
        200,
        {
          verified: false,
          error: { code: 'revoked', message: 'The credential was revoked by its issuer' },
        },
      ]);
      const presented = await h.post('/v2/did/verify-vp', vp);
      expect(presented.body).toEqual({
        verified: false,
        error: {
          code: 'revoked',
          message: 'verifiableCredential[0]: The credential was revoked by its issuer',
        },
      });
      const login = await h.postInternal('/internal/v1/verify-login-vp', { vp });
      expect([login.status, login.body.error.message]).toEqual([
        401,
        'VP refused (revoked): verifiableCredential[0]: The credential was revoked by its issuer',
      ]);
      const made = await h.post(
        '/v2/did/create-vp',
        { holder: alice.did, verifier, credentials: [vc] },
        alice.auth,
      );
      expect(made.status).toBe(400);
      expect(made.body.error.message).toMatch(/revoked/);
    });

    it('status_unavailable for an entry that cannot be checked; VCs without an entry still verify', async () => {
      const craft = (credentialStatus?: { id: string; type: string; [member: string]: unknown }) =>
        h.app.agent.createVerifiableCredential({
          proofFormat: 'jwt',
          credential: {
            '@context': credentialStatus ? [CREDENTIALS_V1, STATUS_V1] : [CREDENTIALS_V1],
            type: ['VerifiableCredential', 'Profile'],
            issuer: { id: issuer },
            issuanceDate: new Date().toISOString(),
            credentialSubject: { id: alice.did, sub: 'alice' },
            ...(credentialStatus ? { credentialStatus } : {}),
          },
        });
      const entry = (listUrl: string, index: string) => ({
        id: `${listUrl}#${index}`,
        type: 'BitstringStatusListEntry',
        statusPurpose: 'revocation',
        statusListIndex: index,
        statusListCredential: listUrl,
      });
      const ours = (await issue(alice)).credentialStatus.statusListCredential as string;
      const cases: Array<[{ id: string; type: string; [member: string]: unknown }, RegExp]> = [
        [entry('https://elsewhere.example/status/1', '7'), /is not one of this service's/],
        [entry(ours, '131071'), /has no entry 131071/],
        [
          entry(`${HARNESS_PUBLIC_URL}/v2/did/status-lists/AAAAAAAAAAAAAAAAAAAAAA`, '1'),
          /has no entry/,
        ],
        [{ ...entry(ours, '1'), statusPurpose: 'suspension' }, /purpose other than revocation/],
        [{ ...entry(ours, '1'), type: 'StatusList2021Entry' }, /is not one of this service's/],
      ];
      for (const [status, message] of cases) {
        const res = await h.post('/v2/did/verify-vc', await craft(status));
        expect(res.body.verified).toBe(false);
        expect(res.body.error.code).toBe('status_unavailable');
        expect(res.body.error.message).toMatch(message);
      }
      // Issued before VCs had status entries: nothing to check.
      expect((await h.post('/v2/did/verify-vc', await craft())).body.verified).toBe(true);
    });

    it('keeps the status of a VC that names its list under an earlier PUBLIC_URL (its issuer’s list only)', async () => {
      const vc = await issue(alice);
      const { statusListCredential, statusListIndex } = vc.credentialStatus;
      const listId = (statusListCredential as string).split('/').pop()!;
      const earlierUrl = `https://old-api.did-harness.test/v2/did/status-lists/${listId}`;
      const earlierEntry = {
        id: `${earlierUrl}#${statusListIndex}`,
        type: 'BitstringStatusListEntry',
        statusPurpose: 'revocation',
        statusListIndex,
        statusListCredential: earlierUrl,
      };
      // What the service signed before PUBLIC_URL changed: the same list, under the old base.
      const before = await h.app.agent.createVerifiableCredential({
        proofFormat: 'jwt',
        credential: {
          '@context': [CREDENTIALS_V1, STATUS_V1],
          type: ['VerifiableCredential', 'Profile'],
          issuer: { id: issuer },
          issuanceDate: new Date().toISOString(),
          credentialSubject: { id: alice.did, sub: 'alice' },
          credentialStatus: earlierEntry,
        },
      });
      expect((await h.post('/v2/did/verify-vc', before)).body.verified).toBe(true);
      // revoke-vc takes it too (its list's issuer signed it): the same entry as vc's.
      const revoked = await h.post('/v2/did/revoke-vc', { jwt: before.proof.jwt }, alice.auth);
      expect([revoked.status, revoked.body]).toEqual([
        200,
        { revoked: true, statusListCredential: earlierUrl, statusListIndex },
      ]);
      expect((await h.post('/v2/did/verify-vc', vc)).body.error.code).toBe('revoked');
      expect((await h.post('/v2/did/verify-vc', before)).body.error).toEqual({
        code: 'revoked',
        message: 'The credential was revoked by its issuer',
      });
      // Signed by any other DID, an old-base URL of that list counts for nothing.
      const checker = new CredentialStatusChecker(
        h.app.statusLists,
        new StatusListUrls(HARNESS_PUBLIC_URL),
      );
      expect(
        await checker.check(
          { credentialStatus: earlierEntry },
          'did:ethr:0x0000000000000000000000000000000000000001',
        ),
      ).toMatchObject({ verified: false, error: { code: 'status_unavailable' } });
      expect(await checker.check({ credentialStatus: earlierEntry }, issuer)).toMatchObject({
        error: { code: 'revoked' },
      });
    });
  });
});
