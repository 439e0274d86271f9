import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TOKEN_ENDED_MESSAGE } from '@itp/auth-jwt';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';
import type { TokenOptions } from '../testing/auth-stand-in.js';

const STEP_UP_CHALLENGE =
  'Bearer error="insufficient_user_authentication", ' +
  'error_description="A more recent authentication is required", max_age=300';

// The user's JWT on the DID API (docs/api.md §12), on one did-service against real PostgreSQL,
// Redis and the dev chain, with auth-service's JWKS and users/status stood in (tokens signed with
// the stand-in's JWKS key, as auth-service signs them).
describe('the DID API and the user’s JWT', () => {
  let h: DidHarness;
  let issuer: string;
  let verifier: string;
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const bearer = async (userId: string, options?: TokenOptions) => ({
    authorization: `Bearer ${await h.auth.tokenFor(userId, options)}`,
  });

  /** A holder DID bound to `userId` and a VC for it (with a fresh login). */
  async function holderWithVc(userId: string) {
    const auth = await bearer(userId);
    const account = h.wallet.createAddress();
    const created = await h.post(
      '/v2/did/create-did',
      { alias: `${userId}-phone`, address: account.address, secretKey: account.secretKey },
      auth,
    );
    expect(created.status).toBe(200);
    const did = created.body.did as string;
    const vc = await h.post('/v2/did/create-vc', { holder: did, issuer, userInfo: {} }, auth);
    expect(vc.status).toBe(200);
    return { did, account, vc: vc.body };
  }

  beforeAll(async () => {
    // Every request asks users/status (no cache): the refusals are at once.
    h = await startDidHarness({ USER_STATUS_CACHE_MS: '0' });
    issuer = (await h.get('/v2/did/issuers')).body[0].did;
    verifier = (await h.get('/v2/did/verifiers')).body[0].did;
  });
  afterAll(() => h.close());

  describe('the security epoch (tokensValidAfter)', () => {
    it('refuses every route a JWT issued before the user’s epoch, and takes one issued after it', async () => {
      const { did, vc } = await holderWithVc('erin');
      const issuedAt = nowSeconds() - 10;
      const old = await bearer('erin', { issuedAt });
      const routes = [
        () => h.get('/v2/did/credentials', old),
        () => h.post('/v2/did/create-vc', { holder: did, issuer, userInfo: {} }, old),
        () => h.post('/v2/did/create-vp', { holder: did, verifier, credentials: [vc] }, old),
        () => h.post('/v2/did/credential-offer', {}, old),
        () => h.post('/v2/did/revoke-vc', { jwt: vc.proof.jwt }, old),
      ];
      // Before the reset the old token is good (a read; create-vp).
      expect((await routes[0]!()).status).toBe(200);
      expect((await routes[2]!()).status).toBe(200);

      // A password reset (or a disable, a logout everywhere) moves the epoch past its iat.
      h.auth.setTokensValidAfter('erin', issuedAt + 1);
      for (const route of routes) {
        const res = await route();
        expect({ status: res.status, body: res.body }).toEqual({
          status: 401,
          body: { error: { code: '401', message: TOKEN_ENDED_MESSAGE } },
        });
      }
      // The VC was not revoked by the refused revoke-vc.
      expect((await h.post('/v2/did/verify-vc', vc)).body.verified).toBe(true);

      // A token issued at the epoch (a login after the reset) is good, the user is not disabled.
      const fresh = await bearer('erin', { issuedAt: issuedAt + 1 });
      expect((await h.get('/v2/did/credentials', fresh)).status).toBe(200);
      expect(
        (await h.post('/v2/did/create-vc', { holder: did, issuer, userInfo: {} }, fresh)).status,
      ).toBe(200);
      // Another user's tokens are not touched.
      expect((await h.get('/v2/did/credentials', await bearer('frank', { issuedAt }))).status).toBe(
        200,
      );
    });

    it('still refuses a disabled user’s token as disabled', async () => {
      const auth = await bearer('gina');
      expect((await h.get('/v2/did/credentials', auth)).status).toBe(200);
      h.auth.setActive('gina', false);
      const res = await h.get('/v2/did/credentials', auth);
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/disabled/);
      h.auth.setActive('gina', true);
      expect((await h.get('/v2/did/credentials', auth)).status).toBe(200);
    });
  });

  describe('step-up (RFC 9470): a login within STEP_UP_MAX_AGE_SECONDS to add a way in', () => {
    const expectChallenge = (res: { status: number; headers: Headers; body: unknown }) => {
      expect({
        status: res.status,
        challenge: res.headers.get('www-authenticate'),
        code: (res.body as { error: { code: string } }).error.code,
      }).toEqual({
        status: 401,
        challenge: STEP_UP_CHALLENGE,
        code: 'insufficient_user_authentication',
      });
    };

    it('create-vc, create-did with a bearer and credential-offer refuse a JWT whose auth_time is older (also an extended one)', async () => {
      const { did, account } = await holderWithVc('hana');
      // Extended with the password long ago: a new iat, the login's auth_time.
      const stale = await bearer('hana', { authTime: nowSeconds() - 301 });
      expectChallenge(
        await h.post('/v2/did/create-vc', { holder: did, issuer, userInfo: {} }, stale),
      );
      expectChallenge(
        await h.post(
          '/v2/did/create-did',
          { alias: 'hana-phone', address: account.address, secretKey: account.secretKey },
          stale,
        ),
      );
      expectChallenge(await h.post('/v2/did/credential-offer', {}, stale));
      // A token without auth_time: its iat decides.
      const oldWithoutAuthTime = await bearer('hana', {
        issuedAt: nowSeconds() - 400,
        authTime: null,
      });
      expectChallenge(
        await h.post(
          '/v2/did/create-vc',
          { holder: did, issuer, userInfo: {} },
          oldWithoutAuthTime,
        ),
      );
    });

    it('the client logs in again and the retry passes', async () => {
      const { did } = await holderWithVc('ivan');
      const request = { holder: did, issuer, userInfo: { name: 'Ivan' } };
      const stale = await bearer('ivan', { issuedAt: nowSeconds() - 600 });
      expectChallenge(await h.post('/v2/did/create-vc', request, stale));
      const fresh = await bearer('ivan', { authTime: nowSeconds() - 299 });
      const retried = await h.post('/v2/did/create-vc', request, fresh);
      expect(retried.status).toBe(200);
      expect(retried.body.credentialSubject).toMatchObject({ id: did, sub: 'ivan', name: 'Ivan' });
      expect((await h.post('/v2/did/credential-offer', { txCode: false }, fresh)).status).toBe(200);
    });

    it('takes its window from STEP_UP_MAX_AGE_SECONDS', async () => {
      const { did } = await holderWithVc('kyle');
      const strict = await h.buildWith({ STEP_UP_MAX_AGE_SECONDS: '60' });
      try {
        const { url } = await strict.service.listen();
        const createVc = async (authTime: number) =>
          fetch(`${url}/v2/did/create-vc`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${await h.auth.tokenFor('kyle', { authTime })}`,
            },
            body: JSON.stringify({ holder: did, issuer, userInfo: {} }),
          });
        const refused = await createVc(nowSeconds() - 90); // within 300 s, not within 60
        expect(refused.status).toBe(401);
        expect(refused.headers.get('www-authenticate')).toMatch(/max_age=60$/);
        expect((await createVc(nowSeconds() - 30)).status).toBe(200);
      } finally {
        await strict.service.close();
      }
    });

    it('reads, create-vp, revoke-vc and create-did without a bearer need no recent login', async () => {
      const { did, vc } = await holderWithVc('jude');
      const stale = await bearer('jude', { authTime: nowSeconds() - 3_000 });
      expect((await h.get('/v2/did/credentials', stale)).status).toBe(200);
      expect(
        (await h.post('/v2/did/create-vp', { holder: did, verifier, credentials: [vc] }, stale))
          .status,
      ).toBe(200);
      expect((await h.post('/v2/did/revoke-vc', { jwt: vc.proof.jwt }, stale)).status).toBe(200);
      const account = h.wallet.createAddress();
      expect(
        (
          await h.post('/v2/did/create-did', {
            alias: 'unbound',
            address: account.address,
            secretKey: account.secretKey,
          })
        ).status,
      ).toBe(200);
    });
  });
});
