/**
 * `approveWithOpenid4vp` (what `itp login approve` runs) against the loopback verifier; the
 * request object's signer resolved through a stub of the chain's resolver (the CLI's spec runs it
 * on a real chain).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeJWT } from 'did-jwt';
import { approveWithOpenid4vp } from './approve-with-openid4vp.js';
import { heldCredential } from './held-credential.js';
import {
  LoopbackVerifier,
  credentialFor,
  newEthrKey,
  stubEthrResolver,
} from './testing/loopback-verifier.js';

const CHAIN = {
  chain: { rpcUrl: 'http://127.0.0.1:9', registry: `0x${'1'.repeat(40)}`, chainId: 31337 },
  resolver: stubEthrResolver,
};

describe('approveWithOpenid4vp', () => {
  const verifier = new LoopbackVerifier();
  const holder = newEthrKey();
  let credentials: ReturnType<typeof heldCredential>[];

  beforeAll(async () => {
    await verifier.start();
    credentials = [
      heldCredential(await credentialFor(holder.did, ['VerifiableCredential', 'Profile'])),
    ];
  });
  afterAll(() => verifier.stop());

  it('presents the holder’s matching credential and reports the approval', async () => {
    verifier.answer = { status: 200, body: '{}' };
    const { uri, nonce } = await verifier.request('a1');
    const outcome = await approveWithOpenid4vp(uri, {
      privateKey: holder.privateKey.slice(2),
      credentials,
      ...CHAIN,
    });
    expect(outcome).toEqual({
      approved: true,
      clientId: verifier.clientId,
      responseUri: verifier.responseUri('a1'),
      holder: holder.did,
      credentialQueryId: 'itp_credential',
      status: 200,
    });
    const vpToken = JSON.parse(verifier.responses.at(-1)!.get('vp_token')!) as {
      itp_credential: [string];
    };
    expect(decodeJWT(vpToken.itp_credential[0]).payload).toMatchObject({
      iss: holder.did,
      aud: verifier.clientId,
      nonce,
    });
  });

  it("reports the verifier's refusal with its error and description", async () => {
    verifier.answer = {
      status: 400,
      body: JSON.stringify({ error: 'access_denied', error_description: 'revoked' }),
    };
    const { uri } = await verifier.request('a2');
    await expect(
      approveWithOpenid4vp(uri, { privateKey: holder.privateKey, credentials, ...CHAIN }),
    ).resolves.toMatchObject({
      approved: false,
      status: 400,
      error: 'access_denied',
      errorDescription: 'revoked',
    });
  });

  it('posts nothing for a key that holds none of the credentials, or is no key', async () => {
    const before = verifier.responses.length;
    const { uri } = await verifier.request('a3');
    const other = newEthrKey();
    await expect(
      approveWithOpenid4vp(uri, { privateKey: other.privateKey, credentials, ...CHAIN }),
    ).rejects.toMatchObject({ code: 'no_matching_credential' });
    await expect(
      approveWithOpenid4vp(uri, { privateKey: '0x12', credentials, ...CHAIN }),
    ).rejects.toMatchObject({ code: 'invalid_key' });
    expect(verifier.responses.length).toBe(before);
  });
});
