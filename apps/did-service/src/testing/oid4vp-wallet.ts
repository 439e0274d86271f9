import { createHash } from 'node:crypto';
import { Openid4vpClient, type ResolvedOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import type { Jwk, JwtSigner } from '@openid4vc/oauth2';
import { setGlobalConfig } from '@openid4vc/utils';
import { ES256KSigner, verifyJWS } from 'did-jwt';
import { createVerifiablePresentationJwt } from 'did-jwt-vc';
import type { Resolver } from 'did-resolver';
import { SigningKey, computeAddress } from 'ethers';

/** The public JWK of the secp256k1 key that made an ES256K JWS, for the library's callbacks. */
function signerJwkOf(compact: string, address: string): Jwk | undefined {
  const [header, payload, signature] = compact.split('.') as [string, string, string];
  const digest = createHash('sha256').update(`${header}.${payload}`).digest();
  const rs = Buffer.from(signature, 'base64url');
  for (const v of [27, 28]) {
    const publicKey = SigningKey.recoverPublicKey(digest, {
      r: `0x${rs.subarray(0, 32).toString('hex')}`,
      s: `0x${rs.subarray(32, 64).toString('hex')}`,
      v,
    });
    if (computeAddress(publicKey).toLowerCase() !== address.toLowerCase()) continue;
    const xy = Buffer.from(publicKey.slice(4), 'hex');
    return {
      kty: 'EC',
      crv: 'secp256k1',
      x: xy.subarray(0, 32).toString('base64url'),
      y: xy.subarray(32).toString('base64url'),
    };
  }
  return undefined;
}

/**
 * Test helper: a third-party OpenID4VP 1.0 wallet — @openid4vc/openid4vp's Openid4vpClient with a
 * did:ethr resolver of its own (thirdPartyResolver) for the request object's signature. It reads
 * an `openid4vp://` URI whose request_uri serves `requestObject`, makes a VP JWT with did-jwt-vc
 * from a key it holds, and posts the answer (form-encoded, direct_post) to a capturing fetch.
 */
export function oid4vpTestWallet(resolver: Resolver) {
  // The request_uri / response_uri of the specs are http (loopback); tests only.
  setGlobalConfig({ allowInsecureUrls: true });
  let requestObject = '';
  let posted: URLSearchParams | undefined;
  const fetchCallback = async (input: string | URL | Request, init?: RequestInit) => {
    if (init?.method === 'POST') {
      posted = new URLSearchParams(String(init.body));
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    }
    return new Response(requestObject, {
      headers: { 'content-type': 'application/oauth-authz-req+jwt' },
    });
  };
  const verifyJwt = async (
    signer: JwtSigner,
    jwt: { compact: string },
  ): Promise<{ verified: true; signerJwk: Jwk } | { verified: false }> => {
    if (signer.method !== 'did') return { verified: false };
    const did = signer.didUrl.split('#')[0] ?? '';
    const { didDocument } = await resolver.resolve(did);
    const method = didDocument?.verificationMethod?.find(
      (m) => m.id === signer.didUrl || m.id === `${did}${signer.didUrl.slice(did.length)}`,
    );
    if (!method) return { verified: false };
    try {
      verifyJWS(jwt.compact, [method]);
    } catch {
      return { verified: false };
    }
    const address = (method.blockchainAccountId ?? '').split(':').pop() ?? '';
    const signerJwk = signerJwkOf(jwt.compact, address);
    return signerJwk ? { verified: true, signerJwk } : { verified: false };
  };
  const client = new Openid4vpClient({
    callbacks: {
      fetch: fetchCallback as typeof fetch,
      verifyJwt,
      hash: (data, alg) => createHash(alg.replace('-', '').toLowerCase()).update(data).digest(),
      signJwt: () => {
        throw new Error('the test wallet signs with did-jwt-vc');
      },
      decryptJwe: () => {
        throw new Error('not used');
      },
      encryptJwe: () => {
        throw new Error('not used');
      },
      getX509CertificateMetadata: () => {
        throw new Error('not used');
      },
    },
  });

  return {
    /** Reads `openid4vp://?client_id=…&request_uri=…` whose request_uri answers `served`. */
    async resolve(
      clientId: string,
      served: string,
      requestUri = 'http://127.0.0.1:9/oid4vp/request',
    ): Promise<ResolvedOpenid4vpAuthorizationRequest> {
      requestObject = served;
      const uri = `openid4vp://?${new URLSearchParams({ client_id: clientId, request_uri: requestUri })}`;
      const parsed = client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: uri });
      return client.resolveOpenId4vpAuthorizationRequest({
        authorizationRequestPayload: parsed.params,
      });
    },

    /** A VP JWT of `holder` signed with `privateKey` (0x hex), holding `credentials` (VC JWTs). */
    presentation(
      holder: string,
      privateKey: string,
      credentials: string[],
      options: { aud: string; nonce: string },
    ): Promise<string> {
      return createVerifiablePresentationJwt(
        {
          vp: {
            '@context': ['https://www.w3.org/2018/credentials/v1'],
            type: ['VerifiablePresentation'],
            verifiableCredential: credentials,
          },
        },
        {
          did: holder,
          signer: ES256KSigner(Buffer.from(privateKey.replace(/^0x/, ''), 'hex')),
          alg: 'ES256K',
        },
        { domain: options.aud, challenge: options.nonce },
      );
    },

    /**
     * Answers the resolved request with `vpToken` (the library builds and posts the response)
     * and returns the `vp_token` form value as the response URI received it.
     */
    async answer(
      resolved: ResolvedOpenid4vpAuthorizationRequest,
      vpToken: Record<string, string[]>,
    ): Promise<{ vpToken: string; state: string | null }> {
      const { authorizationRequestPayload } = resolved;
      const response = await client.createOpenid4vpAuthorizationResponse({
        authorizationRequestPayload,
        authorizationResponsePayload: { vp_token: vpToken as never },
      });
      posted = undefined;
      const responseUri = authorizationRequestPayload.response_uri;
      if (typeof responseUri !== 'string') throw new Error('the request has no response_uri');
      await client.submitOpenid4vpAuthorizationResponse({
        authorizationRequestPayload: { response_uri: responseUri },
        authorizationResponsePayload: response.authorizationResponsePayload,
      });
      const form = posted as URLSearchParams | undefined;
      if (!form) throw new Error('the wallet posted nothing');
      return { vpToken: form.get('vp_token') ?? '', state: form.get('state') };
    },
  };
}
