import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Wallet } from 'ethers';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';
import { breakSignature, decodePayload, foreignCredential } from '../testing/jwt-tampering.js';

describe('POST /internal/v1/verify-login-vp', () => {
  let h: DidHarness;
  let issuer: string;
  let verifier: string;
  let holder: string;
  let auth: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let vc: any;
  let internal: Record<string, string>;

  beforeAll(async () => {
    h = await startDidHarness({ VP_LOGIN_MAX_AGE_SECONDS: '300' });
    internal = { authorization: `Bearer ${h.internalToken}` };
    issuer = (await h.get('/v2/did/issuers')).body[0].did;
    verifier = (await h.get('/v2/did/verifiers')).body[0].did;
    const account = h.wallet.createAddress();
    auth = { authorization: `Bearer ${await h.auth.tokenFor('dora')}` };
    holder = (
      await h.post(
        '/v2/did/create-did',
        { alias: 'dora', address: account.address, secretKey: account.secretKey },
        auth,
      )
    ).body.did;
    vc = (await h.post('/v2/did/create-vc', { holder, issuer, userInfo: { name: 'Dora' } }, auth))
      .body;
  });
  afterAll(() => h.close());

  const freshVp = async () =>
    (await h.post('/v2/did/create-vp', { holder, verifier, credentials: [vc] }, auth)).body;

  /** A VP signed by the holder's key, made directly with the agent (for shapes create-vp refuses to make). */
  const craftedVp = (presentation: Record<string, unknown>) =>
    h.app.agent.createVerifiablePresentation({
      proofFormat: 'jwt',
      presentation: {
        id: `urn:uuid:${crypto.randomUUID()}`,
        '@context': ['https://www.w3.org/2018/credentials/v1'],
        type: ['VerifiablePresentation', 'VerifiableCredential', 'Profile'],
        holder,
        verifier: [verifier],
        verifiableCredential: [vc],
        ...presentation,
      },
    });

  const login = (vp: unknown, headers = internal) =>
    h.postInternal('/internal/v1/verify-login-vp', { vp }, headers);

  it('accepts a fresh VP of the service and names the user, the verifier and the VP id', async () => {
    const vp = await freshVp();
    const res = await login(vp);
    expect(res.status).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    expect(res.body).toEqual({
      userId: 'dora',
      holder,
      verifier,
      vpId: vp.id,
      issuedAt: expect.any(Number),
      freshUntil: res.body.issuedAt + 300,
      // The VC's nbf: auth-service refuses a credential issued before the user's reset.
      credentialIssuedAt: decodePayload(vc.proof.jwt).nbf,
    });
    expect(Math.abs(res.body.issuedAt - now)).toBeLessThan(120);
    expect(res.body.credentialIssuedAt).toBe(Date.parse(vc.issuanceDate) / 1000);
  });

  it('answers the earliest issuance of the credentials inside as credentialIssuedAt', async () => {
    const older = await h.app.agent.createVerifiableCredential({
      proofFormat: 'jwt',
      credential: {
        ...decodePayload(vc.proof.jwt).vc,
        issuer: { id: issuer },
        credentialSubject: { ...decodePayload(vc.proof.jwt).vc.credentialSubject, id: holder },
        issuanceDate: new Date(Date.now() - 3_600_000).toISOString(),
      },
    });
    const vp = await craftedVp({ verifiableCredential: [vc, older] });
    const res = await login(vp);
    expect(res.status).toBe(200);
    expect(res.body.credentialIssuedAt).toBe(decodePayload(older.proof.jwt as string).nbf);
    expect(res.body.credentialIssuedAt).toBeLessThan(decodePayload(vc.proof.jwt).nbf);
  });

  it('is only for callers with the internal API token', async () => {
    const vp = await freshVp();
    expect((await login(vp, {})).status).toBe(401);
    expect((await login(vp, { authorization: 'Bearer wrong-token-wrong-token' })).status).toBe(401);
  });

  it('answers 400 when vp is no verifiable presentation', async () => {
    for (const vp of [undefined, {}, vc, 'eyJ.eyJ.sig']) {
      const res = await login(vp);
      expect(res.status).toBe(400);
    }
  });

  it('refuses with 401 and a reason: stale, wrong audience, no id, no credentials', async () => {
    const expectRefused = async (vp: unknown, reason: string) => {
      const res = await login(vp);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('401');
      expect(res.body.error.message).toContain(`(${reason})`);
    };
    await expectRefused(
      await craftedVp({ issuanceDate: new Date(Date.now() - 301_000).toISOString() }),
      'stale',
    );
    await expectRefused(await craftedVp({ verifier: [issuer] }), 'wrong_audience');
    await expectRefused(
      await craftedVp({ verifier: [`did:ethr:${Wallet.createRandom().address}`] }),
      'wrong_audience',
    );
    await expectRefused(await craftedVp({ id: undefined }), 'missing_id');
    await expectRefused(await craftedVp({ verifiableCredential: [] }), 'no_credentials');
  });

  it('refuses VPs whose credentials are forged, foreign, about someone else or of two users', async () => {
    const refused = async (vp: unknown) => {
      const res = await login(vp);
      expect(res.status).toBe(401);
      return res.body.error.message as string;
    };
    const forgedVc = { ...vc, proof: { ...vc.proof, jwt: breakSignature(vc.proof.jwt) } };
    expect(await refused(await craftedVp({ verifiableCredential: [forgedVc] }))).toContain(
      '(invalid_signature)',
    );
    const foreign = await foreignCredential(holder, 'dora');
    expect(await refused(await craftedVp({ verifiableCredential: [foreign.json] }))).toContain(
      '(foreign_issuer)',
    );
    const account = h.wallet.createAddress();
    const otherAuth = { authorization: `Bearer ${await h.auth.tokenFor('eve')}` };
    const other = (
      await h.post(
        '/v2/did/create-did',
        { alias: 'eve', address: account.address, secretKey: account.secretKey },
        otherAuth,
      )
    ).body.did;
    const evesVc = (await h.post('/v2/did/create-vc', { holder: other, issuer }, otherAuth)).body;
    expect(await refused(await craftedVp({ verifiableCredential: [evesVc] }))).toContain(
      '(subject_mismatch)',
    );
    const secondUser = await h.app.agent.createVerifiableCredential({
      proofFormat: 'jwt',
      credential: {
        '@context': ['https://www.w3.org/2018/credentials/v1'],
        type: ['VerifiableCredential', 'Profile'],
        issuer: { id: issuer },
        issuanceDate: new Date().toISOString(),
        credentialSubject: { id: holder, sub: 'eve' },
      },
    });
    expect(await refused(await craftedVp({ verifiableCredential: [vc, secondUser] }))).toContain(
      '(user_mismatch)',
    );
    expect(await refused(await craftedVp({ verifiableCredential: [secondUser] }))).toContain(
      '(user_mismatch)',
    );
  });

  it('logs nobody in with a VP made before the secretKey holder re-bound the DID (the takeover)', async () => {
    // The review's attack: A made a DID without a bearer; demo got it bound to himself by the old
    // first-create-vc rule (a row like that is written directly here), made a VC and a VP, and
    // logged in as demo. A takes the DID back with create-did + secretKey + her bearer: demo's
    // VP and VC log nobody in any more, and demo can make no new ones.
    const account = h.wallet.createAddress();
    const did = (
      await h.post('/v2/did/create-did', {
        alias: 'victim',
        address: account.address,
        secretKey: account.secretKey,
      })
    ).body.did as string;
    await h.app.bindings.bind(did, 'demo');
    const demo = { authorization: `Bearer ${await h.auth.tokenFor('demo')}` };
    const demosVc = (await h.post('/v2/did/create-vc', { holder: did, issuer }, demo)).body;
    const demosVp = await h.post(
      '/v2/did/create-vp',
      { holder: did, verifier, credentials: [demosVc] },
      demo,
    );
    expect(demosVp.status).toBe(200);
    const victim = { authorization: `Bearer ${await h.auth.tokenFor('victim-user')}` };
    const rebound = await h.post(
      '/v2/did/create-did',
      { alias: 'victim', address: account.address, secretKey: account.secretKey },
      victim,
    );
    expect(rebound.status).toBe(200);
    const res = await login(demosVp.body);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toContain('(user_mismatch)');
    expect(
      (await h.post('/v2/did/create-vp', { holder: did, verifier, credentials: [demosVc] }, demo))
        .status,
    ).toBe(403);
    const ownVc = (await h.post('/v2/did/create-vc', { holder: did, issuer }, victim)).body;
    const ownVp = await h.post(
      '/v2/did/create-vp',
      { holder: did, verifier, credentials: [ownVc] },
      victim,
    );
    const own = await login(ownVp.body);
    expect(own.status).toBe(200);
    expect(own.body.userId).toBe('victim-user');
  });

  it('refuses a VP whose JSON was edited', async () => {
    const vp = await freshVp();
    const res = await login({ ...vp, verifier: [issuer] });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toContain('(json_mismatch)');
  });
});
