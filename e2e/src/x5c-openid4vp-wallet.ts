/**
 * A third-party EU wallet's side of OpenID4VP 1.0 (HAIP): the OpenWallet Foundation's
 * `Openid4vpClient` with the callbacks such a wallet supplies. A request object is trusted when
 * its `x5c` chain ends in the verifier CA the wallet trusts (`verifierCaPem`, checked by
 * @itp/x509's `verifyCertificateChain`, what a wallet's trust list does) and its JWS verifies
 * with the leaf's key; the response goes `direct_post.jwt`, encrypted with jose to the request's
 * key. The presentations themselves are the caller's (e.g. `@sd-jwt/sd-jwt-vc`). No jest in here.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { CompactEncrypt, compactVerify, importJWK, type JWK } from 'jose';
import { Openid4vpClient, type ResolvedOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { setGlobalConfig } from '@openid4vc/utils';
import { trustAnchorsFrom, verifyCertificateChain } from '@itp/x509';

export interface X5cOpenid4vpWallet {
  /** Reads an `openid4vp://` URI: fetches the request object and verifies it (x5c, JWS). */
  resolve(openid4vpUri: string): Promise<ResolvedOpenid4vpAuthorizationRequest>;
  /**
   * Answers with `vpToken` (DCQL credential id → presentations), encrypted to the request's key;
   * the library posts it to the response_uri. The verifier's HTTP answer.
   */
  answer(
    resolved: ResolvedOpenid4vpAuthorizationRequest,
    vpToken: Record<string, string[]>,
  ): Promise<{ status: number; body: unknown }>;
}

const SAN_DNS = 'DNS:';

export function x5cOpenid4vpWallet(options: {
  verifierCaPem: string;
  /** http:// request and response URIs (a stack on loopback): the library's process-wide setting. */
  allowInsecureUrls?: boolean;
}): X5cOpenid4vpWallet {
  if (options.allowInsecureUrls) setGlobalConfig({ allowInsecureUrls: true });
  const anchors = trustAnchorsFrom([options.verifierCaPem]);
  const refuse = (what: string) => (): never => {
    throw new Error(`this wallet does not support ${what}`);
  };
  const client = new Openid4vpClient({
    callbacks: {
      fetch: (input, init) => fetch(input, init),
      hash: (data, alg) =>
        new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
      async verifyJwt(signer, jwt) {
        if (signer.method !== 'x5c') return { verified: false };
        try {
          const { publicKey, publicKeyJwk } = await verifyCertificateChain(signer.x5c, anchors);
          await compactVerify(jwt.compact, publicKey);
          return { verified: true, signerJwk: publicKeyJwk as never };
        } catch {
          return { verified: false };
        }
      },
      getX509CertificateMetadata(certificate) {
        const names = (new X509Certificate(Buffer.from(certificate, 'base64')).subjectAltName ?? '')
          .split(',')
          .map((name) => name.trim());
        return {
          sanDnsNames: names.filter((n) => n.startsWith(SAN_DNS)).map((n) => n.slice(4)),
          sanUriNames: names.filter((n) => n.startsWith('URI:')).map((n) => n.slice(4)),
        };
      },
      async encryptJwe(encryptor, data) {
        const jwe = await new CompactEncrypt(new TextEncoder().encode(data))
          .setProtectedHeader({
            alg: encryptor.alg,
            enc: encryptor.enc,
            ...(encryptor.publicJwk.kid ? { kid: encryptor.publicJwk.kid } : {}),
          })
          .encrypt(await importJWK(encryptor.publicJwk as JWK, encryptor.alg));
        return { encryptionJwk: encryptor.publicJwk, jwe };
      },
      signJwt: refuse('signed responses'),
      decryptJwe: refuse('encrypted request objects'),
    },
  });

  return {
    resolve(openid4vpUri) {
      const { params } = client.parseOpenid4vpAuthorizationRequest({
        authorizationRequest: openid4vpUri,
      });
      return client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: params });
    },
    async answer(resolved, vpToken) {
      const response = await client.createOpenid4vpAuthorizationResponse({
        authorizationRequestPayload: resolved.authorizationRequestPayload,
        authorizationResponsePayload: { vp_token: vpToken as never },
        jarm: {
          encryption: { nonce: 'e2e-wallet-nonce' },
          serverMetadata: {
            authorization_signing_alg_values_supported: ['ES256'],
            authorization_encryption_alg_values_supported: ['ECDH-ES'],
            authorization_encryption_enc_values_supported: ['A128GCM'],
          },
        },
      });
      if (!response.jarm) throw new Error('the library made no encrypted response');
      const { response: answer } = await client.submitOpenid4vpAuthorizationResponse({
        authorizationRequestPayload: {
          response_uri: String(resolved.authorizationRequestPayload.response_uri),
        },
        authorizationResponsePayload: { vp_token: vpToken as never },
        jarm: { responseJwt: response.jarm.responseJwt },
      });
      return { status: answer.status, body: (await answer.json()) as unknown };
    },
  };
}
