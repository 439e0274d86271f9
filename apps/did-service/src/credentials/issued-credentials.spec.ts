import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeList } from '@digitalbazaar/vc-bitstring-status-list';
import { issuedCredentialsResponseSchema } from '@itp/schemas';
import { waitFor } from '@itp/testing/wait-for';
import { ITP_PROFILE_CONFIGURATION_ID } from '../oid4vci/oid4vci-issuance.js';
import {
  HARNESS_PUBLIC_URL,
  startDidHarness,
  statusListPath,
  type DidHarness,
} from '../testing/did-harness.js';
import { decodePayload } from '../testing/jwt-tampering.js';
import { newDidJwkKey, oid4vciTestWallet } from '../testing/oid4vci-wallet.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Vc = any;

// The credentials issued for each user (docs/api.md §12) on one did-service against real
// PostgreSQL, Redis and the dev chain: recorded by create-vc and by the OpenID4VCI credential
// endpoint, listed by GET /v2/did/credentials with their status, and revoked by the internal
// users/revoke-credentials that auth-service calls after a password reset.
describe('credentials issued for a user', () => {
  let h: DidHarness;
  let issuer: string;
  const users: Record<string, { did: string; auth: Record<string, string> }> = {};

  async function user(userId: string) {
    const auth = { authorization: `Bearer ${await h.auth.tokenFor(userId)}` };
    const account = h.wallet.createAddress();
    const res = await h.post(
      '/v2/did/create-did',
      { alias: `${userId}-phone`, address: account.address, secretKey: account.secretKey },
      auth,
    );
    expect(res.status).toBe(200);
    users[userId] = { did: res.body.did as string, auth };
  }
  const issue = async (userId: string): Promise<Vc> => {
    const { did, auth } = users[userId]!;
    const res = await h.post('/v2/did/create-vc', { holder: did, issuer, userInfo: {} }, auth);
    expect(res.status).toBe(200);
    return res.body;
  };
  const listOf = async (userId: string) => {
    const res = await h.get('/v2/did/credentials', users[userId]!.auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(issuedCredentialsResponseSchema.safeParse(res.body).success).toBe(true);
    return res.body as Array<{ id: string; status: string; via: string }>;
  };
  const statusOf = async (userId: string, vc: Vc) =>
    (await listOf(userId)).find((c) => c.id === vc.id)?.status;
  const verified = async (vc: Vc) => (await h.post('/v2/did/verify-vc', vc)).body;
  const revokeCredentials = (body: unknown, headers?: Record<string, string>) =>
    h.postInternal('/internal/v1/users/revoke-credentials', body, headers);
  /** The bit of the VC in its published status list (what any verifier reads). */
  const publishedBit = async (vc: Vc): Promise<boolean> => {
    const res = await fetch(`${h.url}${statusListPath(vc.credentialStatus.statusListCredential)}`);
    const { encodedList } = decodePayload(await res.text()).vc.credentialSubject;
    return (await decodeList({ encodedList })).getStatus(
      Number(vc.credentialStatus.statusListIndex),
    );
  };

  beforeAll(async () => {
    h = await startDidHarness({ USER_STATUS_CACHE_MS: '0' });
    issuer = (await h.get('/v2/did/issuers')).body[0].did;
    for (const id of ['kim', 'lea', 'max', 'ned']) await user(id);
  });
  afterAll(() => h.close());

  describe('GET /v2/did/credentials', () => {
    it('lists the caller’s create-vc credentials, newest first, valid until revoked', async () => {
      const first = await issue('kim');
      const second = await issue('kim');
      await issue('lea');
      for (const vc of [first, second]) {
        expect(vc.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
        expect(decodePayload(vc.proof.jwt).jti).toBe(vc.id);
      }
      const listed = await listOf('kim');
      expect(listed).toEqual([
        {
          id: second.id,
          holder: users['kim']!.did,
          issuedAt: second.issuanceDate,
          expiresAt: second.expirationDate,
          status: 'valid',
          via: 'create-vc',
        },
        {
          id: first.id,
          holder: users['kim']!.did,
          issuedAt: first.issuanceDate,
          expiresAt: first.expirationDate,
          status: 'valid',
          via: 'create-vc',
        },
      ]);

      const revoked = await h.post('/v2/did/revoke-vc', { vc: first }, users['kim']!.auth);
      expect(revoked.status).toBe(200);
      expect(await statusOf('kim', first)).toBe('revoked');
      expect(await statusOf('kim', second)).toBe('valid');
      // Nobody sees another user's credentials.
      expect((await listOf('lea')).map((c) => c.id)).not.toContain(first.id);
    });

    it('needs a bearer JWT', async () => {
      const res = await h.get('/v2/did/credentials');
      expect(res.status).toBe(401);
    });

    it('lists a credential issued through OpenID4VCI as such', async () => {
      const offered = await h.post(
        '/v2/did/credential-offer',
        { txCode: false, userInfo: { name: 'Ned' } },
        users['ned']!.auth,
      );
      expect(offered.status).toBe(200);
      const key = await newDidJwkKey();
      const wallet = oid4vciTestWallet({ publicUrl: HARNESS_PUBLIC_URL, serviceUrl: h.url });
      wallet.useKey(key.privateKey);
      const credentialOffer = await wallet.client.resolveCredentialOffer(
        offered.body.credentialOfferUri,
      );
      const issuerMetadata = await wallet.client.resolveIssuerMetadata(
        credentialOffer.credential_issuer,
      );
      const { accessTokenResponse } =
        await wallet.client.retrievePreAuthorizedCodeAccessTokenFromOffer({
          credentialOffer,
          issuerMetadata,
        });
      const { c_nonce } = await wallet.client.requestNonce({ issuerMetadata });
      const { jwt: proof } = await wallet.client.createCredentialRequestJwtProof({
        issuerMetadata,
        credentialConfigurationId: ITP_PROFILE_CONFIGURATION_ID,
        signer: { method: 'did', didUrl: key.kid, alg: 'ES256' },
        nonce: c_nonce,
      });
      const { credentialResponse } = await wallet.client.retrieveCredentials({
        issuerMetadata,
        accessToken: accessTokenResponse.access_token,
        credentialConfigurationId: ITP_PROFILE_CONFIGURATION_ID,
        proofs: { jwt: [proof] },
      });
      const jwt = (credentialResponse.credentials?.[0] as { credential: string }).credential;
      const payload = decodePayload(jwt);
      expect(await listOf('ned')).toEqual([
        {
          id: payload.jti,
          holder: key.did,
          issuedAt: new Date(payload.nbf * 1000).toISOString(),
          expiresAt: new Date(payload.exp * 1000).toISOString(),
          status: 'valid',
          via: 'openid4vci',
        },
      ]);
    });
  });

  describe('POST /internal/v1/users/revoke-credentials', () => {
    it('revokes the user’s credentials issued before the instant, only those, once', async () => {
      const older = [await issue('max'), await issue('max')];
      const revokedBefore = await issue('max');
      expect(
        (await h.post('/v2/did/revoke-vc', { vc: revokedBefore }, users['max']!.auth)).status,
      ).toBe(200);
      const others = [await issue('lea')];
      // The reset's instant: the next whole second after these were issued; the clock is
      // waited for (no fixed pause), then a credential issued after the reset.
      const issuedBefore = Math.floor(Date.now() / 1000) + 1;
      await waitFor(() => Date.now() >= issuedBefore * 1000, {
        what: 'the clock to pass the reset instant',
        timeoutMs: 3_000,
      });
      const newer = await issue('max');
      expect(decodePayload(newer.proof.jwt).nbf).toBeGreaterThanOrEqual(issuedBefore);

      const res = await revokeCredentials({ userId: 'max', issuedBefore });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ revoked: 2 }); // the one revoked already is not counted

      for (const vc of older) {
        expect(await statusOf('max', vc)).toBe('revoked');
        expect((await verified(vc)).error?.code).toBe('revoked');
        expect(await publishedBit(vc)).toBe(true);
      }
      expect(await statusOf('max', newer)).toBe('valid');
      expect((await verified(newer)).verified).toBe(true);
      expect(await publishedBit(newer)).toBe(false);
      for (const vc of others) {
        expect(await statusOf('lea', vc)).toBe('valid');
        expect((await verified(vc)).verified).toBe(true);
      }

      // Idempotent: again, nothing more.
      expect((await revokeCredentials({ userId: 'max', issuedBefore })).body).toEqual({
        revoked: 0,
      });
      expect((await revokeCredentials({ userId: 'nobody', issuedBefore })).body).toEqual({
        revoked: 0,
      });
    });

    it('is only for auth-service (its internal token) and checks its body', async () => {
      const body = { userId: 'lea', issuedBefore: Math.floor(Date.now() / 1000) + 60 };
      expect((await revokeCredentials(body, {})).status).toBe(401);
      expect(
        (await revokeCredentials(body, { authorization: 'Bearer wrong-token-wrong-token' })).status,
      ).toBe(401);
      for (const bad of [
        {},
        { userId: 'lea' },
        { userId: '', issuedBefore: 1 },
        { ...body, issuedBefore: -1 },
      ]) {
        expect((await revokeCredentials(bad)).status).toBe(400);
      }
      // Nothing of lea's was revoked by the refused calls.
      expect((await listOf('lea')).every((c) => c.status === 'valid')).toBe(true);
      // On the public port it does not exist.
      expect((await h.post('/internal/v1/users/revoke-credentials', body)).status).toBe(404);
    });
  });
});
