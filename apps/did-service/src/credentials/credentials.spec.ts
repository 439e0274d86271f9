import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { verifyJWT } from 'did-jwt';
import { Wallet } from 'ethers';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';
import { thirdPartyResolver } from '../testing/third-party-resolver.js';
import {
  breakSignature,
  decodePayload,
  editJwtPayload,
  foreignCredential,
} from '../testing/jwt-tampering.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('credentials and presentations', () => {
  let h: DidHarness;
  let issuer: string;
  let verifier: string;
  let alice: { did: string; auth: Record<string, string> };
  let bob: { did: string; auth: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let vc: any;

  async function holder(userId: string, alias: string) {
    const account = h.wallet.createAddress();
    const auth = { authorization: `Bearer ${await h.auth.tokenFor(userId)}` };
    const res = await h.post(
      '/v2/did/create-did',
      { alias, address: account.address, secretKey: account.secretKey },
      auth,
    );
    expect(res.status).toBe(200);
    return { did: res.body.did as string, auth };
  }

  beforeAll(async () => {
    h = await startDidHarness({ USER_STATUS_CACHE_MS: '0' });
    issuer = (await h.get('/v2/did/issuers')).body[0].did;
    verifier = (await h.get('/v2/did/verifiers')).body[0].did;
    alice = await holder('alice', 'alice-did');
    bob = await holder('bob', 'bob-did');
    const res = await h.post(
      '/v2/did/create-vc',
      {
        holder: alice.did,
        issuer,
        userInfo: { name: 'Alice', phone: '010-1234', adult: true, age: 30 },
      },
      alice.auth,
    );
    expect(res.status).toBe(200);
    vc = res.body;
  });
  afterAll(() => h.close());

  describe('create-vc', () => {
    it('issues the VC of docs/api.md §3.2', () => {
      const { statusListCredential, statusListIndex } = vc.credentialStatus;
      const credentialStatus = {
        id: `${statusListCredential}#${statusListIndex}`,
        type: 'BitstringStatusListEntry',
        statusPurpose: 'revocation',
        statusListIndex: expect.stringMatching(/^(0|[1-9][0-9]*)$/),
        statusListCredential: expect.stringMatching(
          /^https:\/\/api\.did-harness\.test\/v2\/did\/status-lists\/[A-Za-z0-9_-]{22}$/,
        ),
      };
      expect(vc).toEqual({
        '@context': [
          'https://www.w3.org/2018/credentials/v1',
          'https://www.w3.org/ns/credentials/status/v1',
        ],
        id: expect.stringMatching(
          /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        ),
        type: ['VerifiableCredential', 'Profile'],
        issuer: { id: issuer },
        issuanceDate: expect.stringMatching(ISO_MS),
        expirationDate: expect.stringMatching(ISO_MS),
        credentialSubject: {
          id: alice.did,
          sub: 'alice',
          name: 'Alice',
          phone: '010-1234',
          adult: true,
          age: 30,
        },
        credentialStatus,
        proof: { type: 'JwtProof2020', jwt: expect.any(String) },
      });
      expect(decodePayload(vc.proof.jwt)).toEqual({
        vc: {
          '@context': [
            'https://www.w3.org/2018/credentials/v1',
            'https://www.w3.org/ns/credentials/status/v1',
          ],
          type: ['VerifiableCredential', 'Profile'],
          credentialSubject: {
            sub: 'alice',
            name: 'Alice',
            phone: '010-1234',
            adult: true,
            age: 30,
          },
          credentialStatus,
        },
        sub: alice.did,
        // The credential's id (GET /v2/did/credentials lists it).
        jti: vc.id,
        nbf: expect.any(Number),
        exp: expect.any(Number),
        iss: issuer,
      });
      // VCs expire by default: 90 days (VC_LIFETIME_SECONDS).
      const { nbf, exp } = decodePayload(vc.proof.jwt) as { nbf: number; exp: number };
      expect(exp - nbf).toBe(90 * 24 * 3600);
    });

    it('needs a valid bearer JWT (401)', async () => {
      const request = { holder: alice.did, issuer, userInfo: {} };
      expect((await h.post('/v2/did/create-vc', request)).status).toBe(401);
      const foreign = { authorization: `Bearer ${await h.auth.foreignTokenFor('alice')}` };
      expect((await h.post('/v2/did/create-vc', request, foreign)).status).toBe(401);
      const expired = {
        authorization: `Bearer ${await h.auth.tokenFor('alice', { expiresInSeconds: -60 })}`,
      };
      expect((await h.post('/v2/did/create-vc', request, expired)).status).toBe(401);
    });

    it('answers 400 for an issuer that is not one of the service, or a holder it did not create', async () => {
      const cases = [
        { holder: alice.did, issuer: verifier },
        { holder: alice.did, issuer: `did:ethr:${Wallet.createRandom().address}` },
        { holder: `did:ethr:${Wallet.createRandom().address}`, issuer },
        { holder: issuer, issuer },
      ];
      for (const request of cases) {
        const res = await h.post('/v2/did/create-vc', { ...request, userInfo: {} }, alice.auth);
        expect(res.status).toBe(400);
      }
    });

    it('refuses the DID takeover: knowing a public DID gives nothing, the secretKey holder binds', async () => {
      // The attack of the security review: A makes a wallet and a DID without a bearer; demo,
      // knowing only the public DID, asked for a VC with it, signed a VP with A's key and logged
      // in as demo, locking A out. Now create-vc and create-vp never bind: 403 with how to bind.
      const victim = h.wallet.createAddress();
      const created = await h.post('/v2/did/create-did', {
        alias: 'victim',
        address: victim.address,
        secretKey: victim.secretKey,
      });
      expect(created.status).toBe(200);
      const did = created.body.did as string;
      const demo = { authorization: `Bearer ${await h.auth.tokenFor('demo')}` };
      const stolenVc = await h.post('/v2/did/create-vc', { holder: did, issuer }, demo);
      expect(stolenVc.status).toBe(403);
      expect(stolenVc.body.error).toEqual({
        code: '403',
        message: expect.stringMatching(
          /not bound to you: bind it with create-did.*secretKey.*Bearer/,
        ),
      });
      const stolenVp = await h.post(
        '/v2/did/create-vp',
        { holder: did, verifier, credentials: [vc] },
        demo,
      );
      expect(stolenVp.status).toBe(403);
      expect(await h.app.bindings.boundUser(did)).toBeUndefined();
      const signaturesBefore = h.wallet.signatures();
      // The owner binds with secretKey + her bearer, then works; demo stays refused.
      const victimAuth = { authorization: `Bearer ${await h.auth.tokenFor('victim-user')}` };
      const bound = await h.post(
        '/v2/did/create-did',
        { alias: 'victim', address: victim.address, secretKey: victim.secretKey },
        victimAuth,
      );
      expect(bound.status).toBe(200);
      const ownVc = await h.post('/v2/did/create-vc', { holder: did, issuer }, victimAuth);
      expect(ownVc.status).toBe(200);
      const ownVp = await h.post(
        '/v2/did/create-vp',
        { holder: did, verifier, credentials: [ownVc.body] },
        victimAuth,
      );
      expect(ownVp.status).toBe(200);
      expect(h.wallet.signatures()).toBe(signaturesBefore + 1);
      expect((await h.post('/v2/did/create-vc', { holder: did, issuer }, demo)).status).toBe(403);
      expect(
        (await h.post('/v2/did/create-vc', { holder: alice.did, issuer }, bob.auth)).status,
      ).toBe(403);
    });

    it('lets the secretKey holder take a DID back from a binding made before the review', async () => {
      const account = h.wallet.createAddress();
      const created = await h.post('/v2/did/create-did', {
        alias: 'legacy',
        address: account.address,
        secretKey: account.secretKey,
      });
      const did = created.body.did as string;
      await h.app.bindings.bind(did, 'squatter'); // a row the old first-create-vc rule wrote
      const owner = { authorization: `Bearer ${await h.auth.tokenFor('owner')}` };
      expect((await h.post('/v2/did/create-vc', { holder: did, issuer }, owner)).status).toBe(403);
      const rebound = await h.post(
        '/v2/did/create-did',
        { alias: 'legacy', address: account.address, secretKey: account.secretKey },
        owner,
      );
      expect(rebound.status).toBe(200);
      expect((await h.post('/v2/did/create-vc', { holder: did, issuer }, owner)).status).toBe(200);
      const squatter = { authorization: `Bearer ${await h.auth.tokenFor('squatter')}` };
      expect((await h.post('/v2/did/create-vc', { holder: did, issuer }, squatter)).status).toBe(
        403,
      );
    });

    it('refuses userInfo keys for claims the service derives, naming the key', async () => {
      for (const key of ['id', 'sub', 'userId', 'iss', 'nbf', 'exp', 'iat', 'jti', 'vc', 'vp']) {
        const res = await h.post(
          '/v2/did/create-vc',
          { holder: alice.did, issuer, userInfo: { name: 'Alice', [key]: 'alice' } },
          alice.auth,
        );
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain(`userInfo.${key}: is reserved`);
      }
    });

    it('refuses a disabled user within the status cache time, and 503 when nobody can tell', async () => {
      const account = h.wallet.createAddress();
      const dora = { authorization: `Bearer ${await h.auth.tokenFor('dora')}` };
      const created = await h.post(
        '/v2/did/create-did',
        { alias: 'dora', address: account.address, secretKey: account.secretKey },
        dora,
      );
      expect(created.status).toBe(200);
      const did = created.body.did as string;
      expect((await h.post('/v2/did/create-vc', { holder: did, issuer }, dora)).status).toBe(200);
      h.auth.setActive('dora', false);
      // The harness caches answers for USER_STATUS_CACHE_MS = 0: the very next write is refused.
      for (const [path, body] of [
        ['/v2/did/create-vc', { holder: did, issuer }],
        ['/v2/did/create-vp', { holder: did, verifier, credentials: [vc] }],
        [
          '/v2/did/create-did',
          { alias: 'dora', address: account.address, secretKey: account.secretKey },
        ],
      ] as const) {
        const res = await h.post(path, body, dora);
        expect(res.status).toBe(401);
        expect(res.body.error.message).toMatch(/disabled/);
      }
      h.auth.setActive('dora', true);
      h.auth.setStatusDown(true);
      try {
        // A user auth-service cannot answer for (and no recent answer): 503, never allowed blindly.
        const unknown = { authorization: `Bearer ${await h.auth.tokenFor('eve')}` };
        const res = await h.post('/v2/did/create-vc', { holder: did, issuer }, unknown);
        expect(res.status).toBe(503);
        expect(res.body.error.code).toBe('503');
      } finally {
        h.auth.setStatusDown(false);
      }
      expect((await h.post('/v2/did/create-vc', { holder: did, issuer }, dora)).status).toBe(200);
    });

    it('validates userInfo: flat string / number / boolean values, bounded, derived claims reserved', async () => {
      const bad: unknown[] = [
        { nested: { a: 1 } },
        { list: [1, 2] },
        { nothing: null },
        { sub: 'someone-else' },
        { id: 'did:ethr:0x0' },
        { userId: 'alice' },
        { 'bad key': 'x' },
        { long: 'x'.repeat(1025) },
        Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])),
        JSON.parse('{"__proto__":{"admin":true}}'),
        'not an object',
      ];
      for (const userInfo of bad) {
        const res = await h.post(
          '/v2/did/create-vc',
          { holder: alice.did, issuer, userInfo },
          alice.auth,
        );
        expect(res.status).toBe(400);
      }
    });
  });

  describe('verify-vc', () => {
    it('answers the verification result of docs/api.md §3.4', async () => {
      const res = await h.post('/v2/did/verify-vc', vc);
      expect(res.status).toBe(200);
      const signer = {
        id: `${issuer}#controller`,
        type: 'EcdsaSecp256k1RecoveryMethod2020',
        controller: issuer,
        blockchainAccountId: `eip155:31337:${issuer.slice('did:ethr:'.length)}`,
      };
      expect(res.body).toEqual({
        verified: true,
        payload: decodePayload(vc.proof.jwt),
        didResolutionResult: {
          didDocumentMetadata: {},
          didResolutionMetadata: { contentType: 'application/did+ld+json' },
          didDocument: {
            '@context': expect.arrayContaining(['https://www.w3.org/ns/did/v1']),
            id: issuer,
            verificationMethod: [signer],
            authentication: [signer.id],
            assertionMethod: [signer.id],
          },
        },
        issuer,
        signer,
        jwt: vc.proof.jwt,
        policies: {},
        verifiableCredential: vc,
      });
    });

    it('answers verified false with a reason for edited JSON, an edited JWT, a foreign issuer and expiry', async () => {
      const edited = await h.post('/v2/did/verify-vc', {
        ...vc,
        credentialSubject: { ...vc.credentialSubject, name: 'Mallory' },
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toEqual({
        verified: false,
        error: { code: 'json_mismatch', message: expect.any(String) },
      });

      const jwt = editJwtPayload(vc.proof.jwt, (p) => (p.vc.credentialSubject.name = 'Mallory'));
      const forged = await h.post('/v2/did/verify-vc', {
        ...vc,
        credentialSubject: { ...vc.credentialSubject, name: 'Mallory' },
        proof: { type: 'JwtProof2020', jwt },
      });
      expect(forged.body.verified).toBe(false);
      expect(forged.body.error.code).toBe('invalid_signature');

      for (const at of [10, 40]) {
        const jwt = breakSignature(vc.proof.jwt, at);
        const broken = await h.post('/v2/did/verify-vc', { ...vc, proof: { ...vc.proof, jwt } });
        expect(broken.body.error.code).toBe('invalid_signature');
      }

      const foreign = await foreignCredential(alice.did, 'alice');
      const fromForeign = await h.post('/v2/did/verify-vc', foreign.json);
      expect(fromForeign.body).toEqual({
        verified: false,
        error: {
          code: 'foreign_issuer',
          message: expect.stringContaining('is not an issuer DID of this service'),
        },
      });

      const expiredVc = await h.app.agent.createVerifiableCredential({
        proofFormat: 'jwt',
        credential: {
          '@context': ['https://www.w3.org/2018/credentials/v1'],
          type: ['VerifiableCredential', 'Profile'],
          issuer: { id: issuer },
          issuanceDate: new Date(Date.now() - 7200_000).toISOString(),
          expirationDate: new Date(Date.now() - 3600_000).toISOString(),
          credentialSubject: { id: alice.did, sub: 'alice' },
        },
      });
      const expired = await h.post('/v2/did/verify-vc', expiredVc);
      expect(expired.status).toBe(200);
      expect(expired.body.verified).toBe(false);
      expect(expired.body.error.code).toBe('expired');
    });

    it('answers 400 for a body that is no VC', async () => {
      const { proof: _proof, ...withoutProof } = vc;
      const cases: unknown[] = [
        {},
        [vc],
        'text',
        withoutProof,
        { ...vc, type: ['Profile'] },
        { ...vc, proof: { type: 'Ed25519Signature2018', jwt: vc.proof.jwt } },
        { ...vc, proof: { type: 'JwtProof2020', jwt: 'not a jwt' } },
      ];
      for (const body of cases) {
        const res = await h.post('/v2/did/verify-vc', JSON.stringify(body));
        expect(res.status).toBe(400);
      }
    });

    it('answers 400 for claims nested 20,000 levels deep (was a 500: stack overflow)', async () => {
      const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
      const text = JSON.stringify(vc).replace(/^\{/, `{"evidence":{"x":${deep}},`);
      for (const path of ['/v2/did/verify-vc', '/v2/did/verify-vp']) {
        const res = await h.post(path, text);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/deeper than 64 levels/);
      }
    });
  });

  describe('create-vp', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let vp: any;
    beforeAll(async () => {
      const res = await h.post(
        '/v2/did/create-vp',
        { holder: alice.did, verifier, credentials: [vc] },
        alice.auth,
      );
      expect(res.status).toBe(200);
      vp = res.body;
    });

    it('makes the VP of docs/api.md §3.3, addressed (aud) to the verifier, with a unique id', async () => {
      expect(vp).toEqual({
        id: expect.stringMatching(/^urn:uuid:[0-9a-f-]{36}$/),
        '@context': ['https://www.w3.org/2018/credentials/v1'],
        type: ['VerifiablePresentation', 'VerifiableCredential', 'Profile'],
        holder: alice.did,
        verifier: [verifier],
        issuanceDate: expect.stringMatching(ISO_MS),
        verifiableCredential: [vc],
        proof: { type: 'JwtProof2020', jwt: expect.any(String) },
      });
      const payload = decodePayload(vp.proof.jwt);
      expect(payload).toEqual({
        vp: {
          '@context': ['https://www.w3.org/2018/credentials/v1'],
          type: ['VerifiablePresentation', 'VerifiableCredential', 'Profile'],
          verifiableCredential: [vc.proof.jwt],
        },
        jti: vp.id,
        nbf: expect.any(Number),
        iss: alice.did,
        aud: [verifier],
      });
      const [one, two] = await Promise.all(
        [1, 2].map(() =>
          h.post(
            '/v2/did/create-vp',
            { holder: alice.did, verifier, credentials: [vc] },
            alice.auth,
          ),
        ),
      );
      expect(one?.body.id).not.toBe(two?.body.id);
      expect(one?.body.proof.jwt).not.toBe(two?.body.proof.jwt);
    });

    it('needs the bearer JWT of the user the holder is bound to (401 / 403)', async () => {
      const request = { holder: alice.did, verifier, credentials: [vc] };
      expect((await h.post('/v2/did/create-vp', request)).status).toBe(401);
      expect((await h.post('/v2/did/create-vp', request, bob.auth)).status).toBe(403);
      const account = h.wallet.createAddress();
      const unbound = await h.post('/v2/did/create-did', {
        alias: 'never-bound',
        address: account.address,
        secretKey: account.secretKey,
      });
      const res = await h.post(
        '/v2/did/create-vp',
        { holder: unbound.body.did, verifier, credentials: [vc] },
        alice.auth,
      );
      expect(res.status).toBe(403);
    });

    it('answers 400 for a verifier that is not one of the service, or credentials that are not the holder’s', async () => {
      const notVerifier = await h.post(
        '/v2/did/create-vp',
        { holder: alice.did, verifier: issuer, credentials: [vc] },
        alice.auth,
      );
      expect(notVerifier.status).toBe(400);
      const bobVc = await h.post('/v2/did/create-vc', { holder: bob.did, issuer }, bob.auth);
      const othersVc = await h.post(
        '/v2/did/create-vp',
        { holder: alice.did, verifier, credentials: [bobVc.body] },
        alice.auth,
      );
      expect(othersVc.status).toBe(400);
      const edited = { ...vc, credentialSubject: { ...vc.credentialSubject, name: 'Mallory' } };
      const forged = await h.post(
        '/v2/did/create-vp',
        { holder: alice.did, verifier, credentials: [edited] },
        alice.auth,
      );
      expect(forged.status).toBe(400);
      const foreign = await foreignCredential(alice.did, 'alice');
      const fromForeign = await h.post(
        '/v2/did/create-vp',
        { holder: alice.did, verifier, credentials: [foreign.json] },
        alice.auth,
      );
      expect(fromForeign.status).toBe(400);
      const none = await h.post(
        '/v2/did/create-vp',
        { holder: alice.did, verifier, credentials: [] },
        alice.auth,
      );
      expect(none.status).toBe(400);
    });

    it('answers 403 for a credential of the holder that names another user', async () => {
      const otherUsers = await h.app.agent.createVerifiableCredential({
        proofFormat: 'jwt',
        credential: {
          '@context': ['https://www.w3.org/2018/credentials/v1'],
          type: ['VerifiableCredential', 'Profile'],
          issuer: { id: issuer },
          issuanceDate: new Date().toISOString(),
          credentialSubject: { id: alice.did, sub: 'bob' },
        },
      });
      const res = await h.post(
        '/v2/did/create-vp',
        { holder: alice.did, verifier, credentials: [otherUsers] },
        alice.auth,
      );
      expect(res.status).toBe(403);
    });

    describe('verify-vp', () => {
      it('answers the verification result of docs/api.md §3.4 for a VP', async () => {
        const res = await h.post('/v2/did/verify-vp', vp);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          verified: true,
          payload: decodePayload(vp.proof.jwt),
          didResolutionResult: {
            didDocumentMetadata: {},
            didResolutionMetadata: { contentType: 'application/did+ld+json' },
            didDocument: expect.objectContaining({ id: alice.did }),
          },
          issuer: alice.did,
          signer: expect.objectContaining({ id: `${alice.did}#controller` }),
          jwt: vp.proof.jwt,
          policies: {},
          verifiablePresentation: vp,
        });
      });

      it('answers verified false with a reason for tampered presentations', async () => {
        const edited = await h.post('/v2/did/verify-vp', { ...vp, holder: bob.did });
        expect(edited.body.error.code).toBe('json_mismatch');

        const jwt = editJwtPayload(vp.proof.jwt, (p) => (p.iss = bob.did));
        const forged = await h.post('/v2/did/verify-vp', {
          ...vp,
          holder: bob.did,
          proof: { ...vp.proof, jwt },
        });
        expect(forged.body.verified).toBe(false);
        expect(forged.body.error.code).toBe('invalid_signature');

        const elsewhere = await h.app.agent.createVerifiablePresentation({
          proofFormat: 'jwt',
          presentation: {
            ...vp,
            verifier: [`did:ethr:${Wallet.createRandom().address}`],
            proof: undefined,
            issuanceDate: undefined,
          },
        });
        const wrongAudience = await h.post('/v2/did/verify-vp', elsewhere);
        expect(wrongAudience.body.error.code).toBe('wrong_audience');
      });

      it('verifies every VC inside: a forged, foreign or someone else’s VC fails the VP', async () => {
        const wrap = async (credential: unknown) =>
          h.app.agent.createVerifiablePresentation({
            proofFormat: 'jwt',
            presentation: {
              '@context': ['https://www.w3.org/2018/credentials/v1'],
              type: ['VerifiablePresentation'],
              holder: alice.did,
              verifier: [verifier],
              verifiableCredential: [credential as never],
            },
          });
        const forgedVc = { ...vc, proof: { ...vc.proof, jwt: breakSignature(vc.proof.jwt) } };
        const forged = await h.post('/v2/did/verify-vp', await wrap(forgedVc));
        expect(forged.status).toBe(200);
        expect(forged.body).toEqual({
          verified: false,
          error: {
            code: 'invalid_signature',
            message: expect.stringMatching(/^verifiableCredential\[0\]: /),
          },
        });
        const foreign = await foreignCredential(alice.did, 'alice');
        expect((await h.post('/v2/did/verify-vp', await wrap(foreign.json))).body.error.code).toBe(
          'foreign_issuer',
        );
        const bobVc = await h.post('/v2/did/create-vc', { holder: bob.did, issuer }, bob.auth);
        expect((await h.post('/v2/did/verify-vp', await wrap(bobVc.body))).body.error.code).toBe(
          'subject_mismatch',
        );
      });

      it('answers 400 for a body that is no VP', async () => {
        const cases: unknown[] = [
          {},
          vc,
          [vp],
          { ...vp, type: ['VerifiableCredential'] },
          { ...vp, proof: {} },
        ];
        for (const body of cases) {
          expect((await h.post('/v2/did/verify-vp', JSON.stringify(body))).status).toBe(400);
        }
      });

      it('an independent verifier (did-jwt, its own resolver) accepts the VC and VP JWTs', async () => {
        const resolver = thirdPartyResolver(h.config.DID_REGISTRY_ADDRESS ?? '');
        const vcResult = await verifyJWT(vc.proof.jwt, { resolver });
        expect(vcResult.verified).toBe(true);
        expect(vcResult.issuer).toBe(issuer);
        const vpResult = await verifyJWT(vp.proof.jwt, { resolver, audience: verifier });
        expect(vpResult.verified).toBe(true);
        expect(vpResult.issuer).toBe(alice.did);
        const inner = await verifyJWT(vpResult.payload.vp.verifiableCredential[0], { resolver });
        expect(inner.payload.sub).toBe(alice.did);
        await expect(verifyJWT(breakSignature(vc.proof.jwt), { resolver })).rejects.toThrow(
          /signature/,
        );
        await expect(verifyJWT(vp.proof.jwt, { resolver, audience: issuer })).rejects.toThrow(
          /audience/,
        );
      });
    });
  });
});
