import { createHash, X509Certificate } from 'node:crypto';
import { CompactEncrypt, compactVerify, importJWK, type JWK } from 'jose';
import { Openid4vpClient, type ResolvedOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';

/**
 * Test helper (specs and e2e suites): a third-party OpenID4VP 1.0 wallet — the OpenWallet Foundation's `Openid4vpClient`
 * with the callbacks a wallet supplies: an x5c request object is trusted when its leaf is signed
 * by `verifierCaPem` and the JWS verifies with the leaf's key; SAN dNSNames from the leaf; the
 * response encrypted (direct_post.jwt) with jose to the request's key. When PUBLIC_URL is not
 * listening, the wallet's requests to it go to `serviceUrl` (else give both the same).
 */
export function testWallet(options: {
  verifierCaPem: string;
  publicUrl: string;
  serviceUrl: string;
}) {
  const ca = new X509Certificate(options.verifierCaPem);
  const rewrite = (input: string | URL | Request) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return url.startsWith(options.publicUrl)
      ? options.serviceUrl + url.slice(options.publicUrl.length)
      : url;
  };
  const unsupported = (what: string) => (): never => {
    throw new Error(`this test wallet does not support ${what}`);
  };
  const client = new Openid4vpClient({
    callbacks: {
      hash: (data, alg) =>
        new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
      fetch: (input, init) => fetch(rewrite(input), init),
      async verifyJwt(signer, jwt) {
        if (signer.method !== 'x5c') return { verified: false };
        const [leafDer] = signer.x5c;
        if (!leafDer) return { verified: false };
        const leaf = new X509Certificate(Buffer.from(leafDer, 'base64'));
        const signerJwk = leaf.publicKey.export({ format: 'jwk' }) as JWK;
        if (!leaf.verify(ca.publicKey) || !leaf.checkIssued(ca)) return { verified: false };
        try {
          await compactVerify(jwt.compact, leaf.publicKey);
          return { verified: true, signerJwk: signerJwk as never };
        } catch {
          return { verified: false };
        }
      },
      getX509CertificateMetadata(certificate) {
        const leaf = new X509Certificate(Buffer.from(certificate, 'base64'));
        const names = (leaf.subjectAltName ?? '').split(',').map((n) => n.trim());
        return {
          sanDnsNames: names.filter((n) => n.startsWith('DNS:')).map((n) => n.slice(4)),
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
      signJwt: unsupported('signing'),
      decryptJwe: unsupported('encrypted request objects'),
    },
  });

  return {
    client,
    /** Reads the `openid4vp://` URI: fetches and verifies the request object. */
    async resolve(openid4vpUri: string): Promise<ResolvedOpenid4vpAuthorizationRequest> {
      const parsed = client.parseOpenid4vpAuthorizationRequest({
        authorizationRequest: openid4vpUri,
      });
      return client.resolveOpenId4vpAuthorizationRequest({
        authorizationRequestPayload: parsed.params,
      });
    },
    /** The encrypted response (`response=<JWE>`) to `vpToken`, as the library builds it; not sent. */
    async encrypt(
      resolved: ResolvedOpenid4vpAuthorizationRequest,
      vpToken: Record<string, string[]>,
      enc: 'A128GCM' | 'A256GCM' = 'A128GCM',
    ): Promise<string> {
      const response = await client.createOpenid4vpAuthorizationResponse({
        authorizationRequestPayload: resolved.authorizationRequestPayload,
        authorizationResponsePayload: { vp_token: vpToken as never },
        jarm: {
          encryption: { nonce: 'wallet-nonce' },
          serverMetadata: {
            authorization_signing_alg_values_supported: ['ES256'],
            authorization_encryption_alg_values_supported: ['ECDH-ES'],
            authorization_encryption_enc_values_supported: [enc],
          },
        },
      });
      if (!response.jarm) throw new Error('the library made no encrypted response');
      return response.jarm.responseJwt;
    },
    /** Answers with `vpToken`, encrypted to the request's key (the library posts it). */
    async answer(
      resolved: ResolvedOpenid4vpAuthorizationRequest,
      vpToken: Record<string, string[]>,
      enc: 'A128GCM' | 'A256GCM' = 'A128GCM',
    ): Promise<{ status: number; body: unknown; jwe: string }> {
      const jwe = await this.encrypt(resolved, vpToken, enc);
      const { response: answer } = await client.submitOpenid4vpAuthorizationResponse({
        authorizationRequestPayload: {
          response_uri: String(resolved.authorizationRequestPayload.response_uri),
        },
        authorizationResponsePayload: { vp_token: vpToken as never },
        jarm: { responseJwt: jwe },
      });
      return { status: answer.status, body: (await answer.json()) as unknown, jwe };
    },
  };
}

/** A wallet of `testWallet`. */
export type TestWallet = ReturnType<typeof testWallet>;
