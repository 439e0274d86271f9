import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { decodeJWT, verifyJWT } from 'did-jwt';
import { normalizeCredential } from 'did-jwt-vc';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';
import { thirdPartyResolver } from '../testing/third-party-resolver.js';
import { signCredentialJwt, type UnsignedCredential } from './sign-credential-jwt.js';

/** The VC and its JWT's header and payload, with what differs per signature (the signature) left out. */
function parts(vc: { proof: { jwt: string; type: string } } & Record<string, unknown>) {
  const { header, payload } = decodeJWT(vc.proof.jwt);
  const { proof, ...rest } = vc;
  return { header, payload, vc: rest, proofType: proof.type };
}

describe('signCredentialJwt (the VC JWT without the agent around it)', () => {
  let h: DidHarness;
  let issuer: string;

  beforeAll(async () => {
    h = await startDidHarness({ USER_STATUS_CACHE_MS: '0' });
    issuer = (await h.get('/v2/did/issuers')).body[0].did;
  });
  afterAll(() => h.close());

  const credentialOf = (issuerDid: string): UnsignedCredential => ({
    '@context': [
      'https://www.w3.org/2018/credentials/v1',
      'https://www.w3.org/ns/credentials/status/v1',
    ],
    id: 'urn:uuid:5d1a1c4e-0b7e-4c55-9a43-2f3f7c1b9e10',
    type: ['VerifiableCredential', 'Profile'],
    issuer: { id: issuerDid },
    issuanceDate: '2026-11-27T12:00:00.000Z',
    expirationDate: '2027-02-25T12:00:00.000Z',
    credentialSubject: {
      id: 'did:ethr:0x000000000000000000000000000000000000bEEF',
      sub: 'alice',
      n: 1,
    },
    credentialStatus: {
      id: 'https://api.did-harness.test/v2/did/status-lists/abc#7',
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: '7',
      statusListCredential: 'https://api.did-harness.test/v2/did/status-lists/abc',
    },
  });

  it("makes the agent's VC: the same JWT header and claims, the same JSON, member order included", async () => {
    const direct = await signCredentialJwt(h.app.agent, credentialOf(issuer));
    const agents = await h.app.agent.createVerifiableCredential({
      credential: credentialOf(issuer) as never,
      proofFormat: 'jwt',
    });
    const a = parts(direct as never);
    const b = parts(agents as never);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.header).toEqual({ alg: 'ES256K', typ: 'JWT' });
    expect(a.payload.iss).toBe(issuer);
    // Signed by the issuer's key: an independent verifier with its own resolver accepts it.
    const verified = await verifyJWT(direct.proof.jwt as string, {
      resolver: thirdPartyResolver(h.config.DID_REGISTRY_ADDRESS ?? ''),
    });
    expect(verified.issuer).toBe(issuer);
  });

  it('fills in the mandatory context and type as the agent does', async () => {
    const bare = { ...credentialOf(issuer), '@context': [], type: ['Profile'] };
    const direct = await signCredentialJwt(h.app.agent, bare);
    const agents = await h.app.agent.createVerifiableCredential({
      credential: { ...credentialOf(issuer), '@context': [], type: ['Profile'] } as never,
      proofFormat: 'jwt',
    });
    expect(direct['@context']).toEqual(['https://www.w3.org/2018/credentials/v1']);
    expect(direct.type).toEqual(['VerifiableCredential', 'Profile']);
    expect(JSON.stringify(parts(direct as never))).toBe(JSON.stringify(parts(agents as never)));
  });

  it('refuses an issuer that is no DID of this agent, and signs for the real one afterwards', async () => {
    const stranger = 'did:ethr:0x000000000000000000000000000000000000dEaD';
    await expect(signCredentialJwt(h.app.agent, credentialOf(stranger))).rejects.toThrow(
      /must be a DID managed by this agent/,
    );
    await expect(signCredentialJwt(h.app.agent, credentialOf(stranger))).rejects.toThrow(
      /must be a DID managed by this agent/,
    );
    const vc = await signCredentialJwt(h.app.agent, credentialOf(issuer));
    expect(decodeJWT(vc.proof.jwt as string).payload.iss).toBe(issuer);
  });

  it("signs with the key manager's own method, not through the agent's execute (ADR 0035 amendment)", async () => {
    const execute = jest.spyOn(h.app.agent, 'execute');
    try {
      const vc = await signCredentialJwt(h.app.agent, credentialOf(issuer));
      const stored = await h.app.agent.didManagerGet({ did: issuer });
      expect(stored.did).toBe(issuer);
      // No agent dispatch (debug loggers, a JSON copy of the result) for the signature or the look-up.
      expect(execute).not.toHaveBeenCalled();
      const verified = await verifyJWT(vc.proof.jwt as string, {
        resolver: thirdPartyResolver(h.config.DID_REGISTRY_ADDRESS ?? ''),
      });
      expect(verified.issuer).toBe(issuer);
      // The same errors as through the agent: an unknown key is still refused by the key store.
      await expect(
        h.app.agent.keyManagerSign({ keyRef: 'no-such-key', data: 'x', algorithm: 'ES256K' }),
      ).rejects.toThrow();
      await expect(
        h.app.agent.didManagerGet({ did: 'did:ethr:0x' + '0'.repeat(40) }),
      ).rejects.toThrow('Identifier not found');
    } finally {
      execute.mockRestore();
    }
  });

  it('answers what decoding its JWT gives (did-jwt-vc normalizeCredential), byte for byte, without decoding it', async () => {
    const { expirationDate: _none, ...noExpiry } = credentialOf(issuer);
    const shapes: UnsignedCredential[] = [
      credentialOf(issuer),
      noExpiry,
      {
        ...credentialOf(issuer),
        issuer: issuer,
        issuanceDate: '2026-11-27T12:00:00.999Z',
        credentialSubject: {
          id: 'did:ethr:0x000000000000000000000000000000000000bEEF',
          sub: 'bob',
          name: 'Zoë « Ĳssel » 日本 😀',
          address: { street: 'Rue \u0022 1', lines: ['a', 'b'], empty: {} },
          age: 42.5,
          verified: false,
          nothing: null,
        },
        evidence: [{ type: 'Check', note: 'moved into vc and back' }],
      },
    ];
    for (const shape of shapes) {
      const vc = await signCredentialJwt(h.app.agent, shape);
      const decoded = normalizeCredential(vc.proof.jwt as string);
      expect(JSON.stringify(vc)).toBe(JSON.stringify(decoded));
      const agents = await h.app.agent.createVerifiableCredential({
        credential: shape as never,
        proofFormat: 'jwt',
      });
      expect(JSON.stringify(parts(vc as never))).toBe(JSON.stringify(parts(agents as never)));
      await expect(
        verifyJWT(vc.proof.jwt as string, {
          resolver: thirdPartyResolver(h.config.DID_REGISTRY_ADDRESS ?? ''),
        }),
      ).resolves.toMatchObject({ issuer });
    }
  });
});
