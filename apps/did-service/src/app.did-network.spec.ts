import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { verifyCredential } from 'did-jwt-vc';
import { startDidHarness, type DidHarness } from './testing/did-harness.js';
import { thirdPartyResolver } from './testing/third-party-resolver.js';

async function issueFor(h: DidHarness, userId: string) {
  const issuer = (await h.get('/v2/did/issuers')).body[0].did as string;
  const verifier = (await h.get('/v2/did/verifiers')).body[0].did as string;
  const account = h.wallet.createAddress();
  const auth = { authorization: `Bearer ${await h.auth.tokenFor(userId)}` };
  const created = await h.post(
    '/v2/did/create-did',
    { alias: userId, address: account.address, secretKey: account.secretKey },
    auth,
  );
  expect(created.status).toBe(200);
  const holder = created.body.did as string;
  const vc = await h.post(
    '/v2/did/create-vc',
    { holder, issuer, userInfo: { name: userId } },
    auth,
  );
  expect(vc.status).toBe(200);
  return { issuer, verifier, holder, account, auth, vc: vc.body };
}

describe.each([
  // [DID_NETWORK, the DID prefix it gives, the network name a third-party resolver configures]
  ['', 'did:ethr:0x', 'mainnet'],
  ['0x7a69', 'did:ethr:0x7a69:0x', '0x7a69'],
  ['itp-dev', 'did:ethr:itp-dev:0x', 'itp-dev'],
])('DID_NETWORK=%j', (didNetwork, prefix, resolverName) => {
  let h: DidHarness;
  let issued: Awaited<ReturnType<typeof issueFor>>;

  beforeAll(async () => {
    h = await startDidHarness({ DID_NETWORK: didNetwork, USER_STATUS_CACHE_MS: '0' });
    issued = await issueFor(h, 'erin');
  });
  afterAll(() => h.close());

  it('creates service and holder DIDs in that form', () => {
    for (const did of [issued.issuer, issued.verifier, issued.holder]) {
      expect(did.startsWith(prefix)).toBe(true);
      expect(did).toMatch(/^did:ethr:(?:[a-z0-9-]+:)?0x[0-9a-fA-F]{40}$/);
    }
    expect(issued.vc.credentialSubject.id).toBe(issued.holder);
  });

  it("verifies with a third party's did-jwt-vc + ethr-did-resolver configured as documented", async () => {
    const resolver = thirdPartyResolver(h.config.DID_REGISTRY_ADDRESS as string, resolverName);
    const verified = await verifyCredential(issued.vc.proof.jwt, resolver);
    expect(verified.verified).toBe(true);
    expect(verified.issuer).toBe(issued.issuer);
    expect(verified.payload.sub).toBe(issued.holder);
  });

  it('verifies and logs in with a VP of that form (binding, create-vp, verify-vc, verify-login-vp)', async () => {
    const vp = await h.post(
      '/v2/did/create-vp',
      { holder: issued.holder, verifier: issued.verifier, credentials: [issued.vc] },
      issued.auth,
    );
    expect(vp.status).toBe(200);
    expect((await h.post('/v2/did/verify-vc', issued.vc)).body).toMatchObject({ verified: true });
    const login = await h.postInternal('/internal/v1/verify-login-vp', { vp: vp.body });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({
      userId: 'erin',
      holder: issued.holder,
      verifier: issued.verifier,
    });
  });
});

describe('both forms on one chain', () => {
  let h: DidHarness;
  beforeAll(async () => {
    h = await startDidHarness({ DID_NETWORK: 'itp-dev', USER_STATUS_CACHE_MS: '0' });
  });
  afterAll(() => h.close());

  it('a resolver knowing only "mainnet" does not resolve a named network (the segment matters)', async () => {
    const { vc } = await issueFor(h, 'fay');
    const resolver = thirdPartyResolver(h.config.DID_REGISTRY_ADDRESS as string);
    await expect(verifyCredential(vc.proof.jwt, resolver)).rejects.toThrow(
      /unknownNetwork|resolve/,
    );
  });

  it('keeps a DID made before DID_NETWORK was set, and resolves it', async () => {
    const bare = await h.buildWith({ DID_NETWORK: '' });
    const bareUrl = (await bare.service.listen()).url;
    try {
      const account = h.wallet.createAddress();
      const auth = { authorization: `Bearer ${await h.auth.tokenFor('gus')}` };
      const body = { alias: 'gus', address: account.address, secretKey: account.secretKey };
      const post = async (url: string) => {
        const res = await fetch(`${url}/v2/did/create-did`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth },
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { did: string }).did;
      };
      const before = await post(bareUrl);
      expect(before).toBe(`did:ethr:${account.address}`);
      // The same address again, now with DID_NETWORK set: the stored DID, not a second one.
      expect(await post(h.url)).toBe(before);
      const resolved = await h.app.agent.resolveDid({ didUrl: before });
      expect(resolved.didDocument?.id).toBe(before);
      const segment = await h.app.agent.resolveDid({
        didUrl: `did:ethr:0x7a69:${account.address}`,
      });
      expect(segment.didDocument?.id).toBe(`did:ethr:0x7a69:${account.address}`);
    } finally {
      await bare.service.close();
    }
  });

  it('refuses to start with a hex DID_NETWORK that is not the chain id', async () => {
    await expect(h.buildWith({ DID_NETWORK: '0x1' })).rejects.toThrow(
      /DID_NETWORK: 0x1 is not the chain id/,
    );
  });
});
