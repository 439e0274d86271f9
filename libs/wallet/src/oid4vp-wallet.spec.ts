/**
 * The wallet against the library's own verifier side (`Openid4vpVerifier` of
 * @openid4vc/openid4vp) on loopback, without a stack: what the e2e suites' wallet sends is checked
 * here, so a failing e2e oid4vp.suite.ts points at the server.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeJWT } from 'did-jwt';
import { verifyPresentation } from 'did-jwt-vc';
import { Oid4vpWallet } from './oid4vp-wallet.js';
import {
  LoopbackVerifier,
  credentialFor,
  newEthrKey,
  stubEthrResolver as resolver,
} from './testing/loopback-verifier.js';

describe('the OpenID4VP wallet against the library’s verifier side', () => {
  const verifier = new LoopbackVerifier();
  const holder = newEthrKey();
  const wallet = new Oid4vpWallet({ resolver, holder, allowInsecureUrls: true });

  beforeAll(() => verifier.start());
  afterAll(() => verifier.stop());

  it('resolves a signed request by reference and posts vp_token (keyed by the query id) and state', async () => {
    const { uri, nonce, state } = await verifier.request('1');
    const vcJwt = await credentialFor(holder.did, ['VerifiableCredential', 'Profile']);

    const { resolved, answer } = await wallet.logIn(uri, [vcJwt]);
    expect(resolved).toMatchObject({
      clientId: verifier.clientId,
      verifierDid: verifier.key.did,
      signerKid: `${verifier.key.did}#controller`,
      nonce,
      state,
    });
    expect(answer).toEqual({ status: 200, contentType: 'application/json', body: {} });

    const form = verifier.responses.at(-1)!;
    expect([...form.keys()].sort()).toEqual(['state', 'vp_token']);
    expect(form.get('state')).toBe(state);
    const vpToken = JSON.parse(form.get('vp_token')!) as Record<string, string[]>;
    expect(Object.keys(vpToken)).toEqual(['itp_credential']);
    const [vpJwt] = vpToken['itp_credential']!;
    expect(decodeJWT(vpJwt!).header).toMatchObject({
      alg: 'ES256K',
      kid: `${holder.did}#controller`,
    });
    // A verifier's check of the VP: the holder's signature, aud the full client id, the nonce.
    const verified = await verifyPresentation(vpJwt!, resolver, {
      audience: verifier.clientId,
      challenge: nonce,
    });
    expect(verified.issuer).toBe(holder.did);
    expect(verified.payload).toMatchObject({ aud: verifier.clientId, nonce });
    expect(verified.verifiablePresentation.verifiableCredential?.[0]?.proof).toMatchObject({
      jwt: vcJwt,
    });
  });

  it('refuses a request object signed by a key other than the client id’s DID', async () => {
    const { uri } = await verifier.request('2', newEthrKey().privateKey);
    await expect(wallet.resolve(uri)).rejects.toThrow(/verification of jwt/);
  });

  it('finds no credential for the query when the types do not match', async () => {
    const { uri } = await verifier.request('3');
    const resolved = await wallet.resolve(uri);
    const other = await credentialFor(holder.did, ['VerifiableCredential']);
    expect(() => wallet.select(resolved, [other])).toThrow(/no credential/);
  });
});
