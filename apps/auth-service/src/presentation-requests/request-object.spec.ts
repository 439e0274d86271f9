// @peculiar/x509 (through @itp/x509) needs reflect-metadata first; see wire-presentation-requests.ts.
import 'reflect-metadata';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { decodeJwt, exportJWK, generateKeyPair, type JWK } from 'jose';
import { parseAuthorizationRequestVersion, zClientMetadata } from '@openid4vc/openid4vp';
import { createCa, issueLeaf } from '@itp/x509';
import { signRequestObject, VP_FORMATS_SUPPORTED } from './request-object.js';
import { verifierIdentity, type VerifierIdentity } from './verifier-identity.js';

let verifier: VerifierIdentity;
let payload: Record<string, unknown>;

beforeAll(async () => {
  const ca = await createCa({ subject: 'CN=Verifier CA' });
  const leaf = await issueLeaf(ca, {
    subject: 'CN=api.example.test',
    dnsNames: ['api.example.test'],
  });
  verifier = await verifierIdentity(leaf.privateKeyJwk as JWK, leaf.x5c, 'api.example.test');
  const { publicKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  const now = Date.now();
  const jwt = await signRequestObject(verifier, {
    responseUri: 'https://api.example.test/v2/auth/presentation-requests/x/response',
    nonce: 'n',
    state: 's',
    dcqlQuery: { credentials: [] } as never,
    encryptionJwk: { ...(await exportJWK(publicKey)), kid: 'k', use: 'enc', alg: 'ECDH-ES' },
    now,
    expiresAt: now + 60_000,
  });
  payload = decodeJwt(jwt);
});

describe('the request object’s vp_formats_supported (OpenID4VP 1.0 final, Appendix B)', () => {
  it('names each format’s algorithms as 1.0 does: COSE numbers for mdoc, JOSE names otherwise', () => {
    const metadata = payload.client_metadata as { vp_formats_supported: unknown };
    expect(metadata.vp_formats_supported).toEqual({
      'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
      mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7] },
      jwt_vc_json: { alg_values: ['ES256K', 'ES256', 'EdDSA'] },
    });
  });

  it('is valid client metadata for the wallet library, which keeps every member', () => {
    const parsed = zClientMetadata.parse(payload.client_metadata);
    expect(parsed.vp_formats_supported).toEqual(VP_FORMATS_SUPPORTED);
  });

  it('reads as OpenID4VP 1.0 to the library, where the drafts’ mdoc names would not', () => {
    const request = payload as Parameters<typeof parseAuthorizationRequestVersion>[0];
    expect(parseAuthorizationRequestVersion(request)).toBe(100);
    const drafts = {
      ...request,
      client_metadata: {
        vp_formats_supported: {
          mso_mdoc: { issuer_signed_alg_values: [-7], device_signed_alg_values: [-7] },
        },
      },
    } as typeof request;
    expect(parseAuthorizationRequestVersion(drafts)).toBeLessThan(28);
  });
});
