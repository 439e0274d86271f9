import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createAgent, type IResolver } from '@veramo/core';
import { CredentialProviderJWT } from '@veramo/credential-jwt';
import { CredentialPlugin } from '@veramo/credential-w3c';
import { DIDResolverPlugin } from '@veramo/did-resolver';
import type { DIDResolutionResult } from 'did-resolver';
import { Wallet, recoverAddress } from 'ethers';
import type { DidAgent } from '../agent/create-did-agent.js';
import { CredentialStatusChecker } from '../status/credential-status.js';
import { StatusListUrls } from '../status/status-list-urls.js';
import { HARNESS_PUBLIC_URL, startDidHarness, type DidHarness } from '../testing/did-harness.js';
import { breakSignature, editJwtPayload, foreignCredential } from '../testing/jwt-tampering.js';
import { checkCredential } from './check-credential.js';
import type { CredentialContext } from './credential-context.js';
import { verifyCredentialJwtFast } from './verify-credential-jwt.js';

/** secp256k1's group order. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The recovery id (0 or 1) of an ES256K JWT signed by `address`. */
function recoveryIdOf(jwt: string, address: string): number {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const digest = createHash('sha256').update(`${header}.${payload}`).digest();
  const sig = Buffer.from(signature, 'base64url');
  const r = `0x${sig.subarray(0, 32).toString('hex')}`;
  const s = `0x${sig.subarray(32, 64).toString('hex')}`;
  for (const id of [0, 1]) {
    if (recoverAddress(digest, { r, s, v: 27 + id }).toLowerCase() === address.toLowerCase()) {
      return id;
    }
  }
  throw new Error('not signed by that address');
}

/** The same signature with S replaced by N − S (the high-S twin of a low-S signature). */
function highS(jwt: string): string {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const sig = Buffer.from(signature, 'base64url');
  const s = BigInt(`0x${sig.subarray(32, 64).toString('hex')}`);
  const twin = Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex');
  return [header, payload, Buffer.concat([sig.subarray(0, 32), twin]).toString('base64url')].join(
    '.',
  );
}

// Both paths of checkCredential on one corpus against real PostgreSQL, Redis and the dev chain:
// node:crypto against a known key (verify-credential-jwt.ts) and the agent's (did-jwt's key
// recovery). Each case asserts the same answer, member for member and in the same order, and
// whether the fast path answered it itself.
describe('verifyCredentialJwtFast: the answers of the agent path, at the cost of one signature check', () => {
  let h: DidHarness;
  let issuer: string;
  let kim: { did: string; auth: Record<string, string> };
  let ctx: CredentialContext;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const vcs: Record<'id0' | 'id1' | 'revoked', any> = {} as never;

  const issue = async () => {
    const res = await h.post(
      '/v2/did/create-vc',
      { holder: kim.did, issuer, userInfo: { name: 'Kim' } },
      kim.auth,
    );
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    h = await startDidHarness({ USER_STATUS_CACHE_MS: '0' });
    issuer = (await h.get('/v2/did/issuers')).body[0].did;
    const account = h.wallet.createAddress();
    const auth = { authorization: `Bearer ${await h.auth.tokenFor('kim')}` };
    const res = await h.post(
      '/v2/did/create-did',
      { alias: 'kim-phone', address: account.address, secretKey: account.secretKey },
      auth,
    );
    expect(res.status).toBe(200);
    kim = { did: res.body.did, auth };
    ctx = {
      agent: h.app.agent,
      serviceDids: h.app.serviceDids,
      status: new CredentialStatusChecker(
        h.app.statusLists,
        new StatusListUrls(HARNESS_PUBLIC_URL),
      ),
    };
    const address = issuer.split(':').pop() as string;
    for (let i = 0; i < 64 && !(vcs.id0 && vcs.id1); i++) {
      const vc = await issue();
      vcs[recoveryIdOf(vc.proof.jwt, address) === 0 ? 'id0' : 'id1'] ??= vc;
    }
    expect(vcs.id0 && vcs.id1).toBeTruthy();
    vcs.revoked = await issue();
    expect((await h.post('/v2/did/revoke-vc', { vc: vcs.revoked }, kim.auth)).status).toBe(200);
  }, 120_000);
  afterAll(() => h.close());

  /** Both paths of checkCredential for `jwt` (and the JSON, when given): the same answer. */
  async function same(
    jwt: string,
    fastAnswers: boolean,
    claimed?: unknown,
    context: CredentialContext = ctx,
  ) {
    const today = await checkCredential(context, jwt, claimed, { fast: false });
    const fast = await checkCredential(context, jwt, claimed);
    expect(fast).toStrictEqual(today);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(today));
    expect((await verifyCredentialJwtFast(context, jwt)) !== undefined).toBe(fastAnswers);
    return fast;
  }

  it('verifies a VC whose signature has recovery id 0 and one with id 1, as the agent does', async () => {
    for (const vc of [vcs.id0, vcs.id1]) {
      const answer = await same(vc.proof.jwt, true, vc);
      expect(answer.verified).toBe(true);
      expect(answer).toMatchObject({ issuer, signer: { id: `${issuer}#controller` } });
    }
    // The agent's own result (what verify-vc answers before the issuer and status checks).
    const agents = await h.app.agent.verifyCredential({ credential: vcs.id1.proof.jwt });
    const fast = await verifyCredentialJwtFast(ctx, vcs.id1.proof.jwt);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(agents));
    expect(fast).toStrictEqual(agents);
  });

  it('accepts the high-S twin of a valid signature, as did-jwt does', async () => {
    for (const vc of [vcs.id0, vcs.id1]) {
      const twin = highS(vc.proof.jwt);
      expect(twin).not.toBe(vc.proof.jwt);
      expect((await same(twin, true)).verified).toBe(true);
    }
  });

  it('refuses tampered signatures and claims with the agent path’s errors', async () => {
    for (const at of [10, 40, 63]) {
      const answer = await same(breakSignature(vcs.id0.proof.jwt, at), false);
      expect(answer).toMatchObject({ verified: false, error: { code: 'invalid_signature' } });
    }
    const edited = editJwtPayload(vcs.id1.proof.jwt, (p) => (p.vc.credentialSubject.name = 'Max'));
    expect(await same(edited, false)).toMatchObject({ error: { code: 'invalid_signature' } });
  });

  it('refuses expired and not yet valid VCs with did-jwt’s messages', async () => {
    const credential = (issuanceDate: number, expirationDate: number) =>
      h.app.agent.createVerifiableCredential({
        proofFormat: 'jwt',
        credential: {
          '@context': ['https://www.w3.org/2018/credentials/v1'],
          type: ['VerifiableCredential', 'Profile'],
          issuer: { id: issuer },
          issuanceDate: new Date(issuanceDate).toISOString(),
          expirationDate: new Date(expirationDate).toISOString(),
          credentialSubject: { id: kim.did, sub: 'kim' },
        },
      });
    const now = Date.now();
    const expired = await credential(now - 7200_000, now - 3600_000);
    expect(await same(expired.proof.jwt, false)).toMatchObject({ error: { code: 'expired' } });
    const early = await credential(now + 3600_000, now + 7200_000);
    expect(await same(early.proof.jwt, false)).toMatchObject({
      error: { code: 'not_yet_valid' },
    });
    // Within did-jwt's 300 s skew: valid on both paths.
    const skewed = await credential(now + 120_000, now + 7200_000);
    expect((await same(skewed.proof.jwt, true)).verified).toBe(true);
  });

  it('refuses a VC of another issuer, a revoked VC and malformed JWTs alike', async () => {
    const foreign = await foreignCredential(kim.did, 'kim');
    expect(await same(foreign.jwt, false, foreign.json)).toMatchObject({
      error: { code: 'foreign_issuer' },
    });
    // The signature verifies on the fast path; the status check after it refuses.
    expect(await same(vcs.revoked.proof.jwt, true)).toMatchObject({
      error: { code: 'revoked' },
    });
    const [header, payload] = vcs.id0.proof.jwt.split('.');
    for (const jwt of ['not a jwt', 'a.b.c', `${header}.${payload}`, `${header}.${payload}.`]) {
      const answer = await same(jwt, false);
      expect(answer.verified).toBe(false);
    }
    // The JSON must still say what the JWT says.
    expect(
      await same(vcs.id0.proof.jwt, true, { ...vcs.id0, credentialSubject: { id: kim.did } }),
    ).toMatchObject({ error: { code: 'json_mismatch' } });
  });

  it('stops verifying once the DID document no longer lists the key (a rotated owner)', async () => {
    // An agent of the verifying kind (resolver + JWT credentials) over the service's own
    // resolution, whose document of the issuer can be switched to another owner address.
    let rotated = false;
    const otherOwner = Wallet.createRandom().address;
    const resolve = async (didUrl: string): Promise<DIDResolutionResult> => {
      const result = structuredClone(await h.app.agent.resolveDid({ didUrl }));
      if (!rotated) return result;
      for (const m of result.didDocument?.verificationMethod ?? []) {
        if (m.blockchainAccountId) {
          m.blockchainAccountId = m.blockchainAccountId.replace(/0x[0-9a-fA-F]{40}$/, otherOwner);
        }
      }
      return result;
    };
    const agent = createAgent<IResolver>({
      plugins: [
        new DIDResolverPlugin({ resolver: { resolve } as never }),
        new CredentialPlugin([new CredentialProviderJWT()]),
        {
          methods: {
            didManagerGet: (args: unknown) => h.app.agent.didManagerGet(args as never),
          },
        },
      ],
    }) as unknown as DidAgent;
    const context: CredentialContext = { ...ctx, agent };
    // Before: the fast path learns the issuer's key and verifies.
    expect((await same(vcs.id1.proof.jwt, true, undefined, context)).verified).toBe(true);
    rotated = true;
    const answer = await same(vcs.id1.proof.jwt, false, undefined, context);
    expect(answer).toMatchObject({ verified: false, error: { code: 'invalid_signature' } });
    expect(await same(highS(vcs.id0.proof.jwt), false, undefined, context)).toMatchObject({
      error: { code: 'invalid_signature' },
    });
    rotated = false;
    expect((await same(vcs.id0.proof.jwt, true, undefined, context)).verified).toBe(true);
  });
});
