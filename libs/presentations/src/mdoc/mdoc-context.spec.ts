// jest links CommonJS packages eagerly: tsyringe (@peculiar/x509, in @itp/x509) needs this first.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { createCa, issueLeaf } from '@itp/x509';
import {
  CoseKey,
  SessionTranscript,
  Sign1,
  SignatureAlgorithm,
  Verifier,
  type VerificationAssessment,
} from '@owf/mdoc';
import { issueTestMdoc, presentTestMdoc } from '../testing/mdoc-issuer.js';
import { mdocContext } from './mdoc-context.js';
import { UnsupportedMdocOperationError } from './unsupported-mdoc-operation-error.js';

const PID = 'eu.europa.ec.eudi.pid.1';
const REQUEST = {
  clientId: 'x509_san_dns:verifier.example',
  nonce: 'nonce-7d2e',
  responseUri: 'https://verifier.example/oid4vp/response',
};

async function presentation() {
  const ca = await createCa({ subject: 'CN=Context CA,C=DE' });
  const leaf = await issueLeaf(ca, { subject: 'CN=Context DS,C=DE' });
  const { publicKey, privateKey } = await webcrypto.subtle.generateKey(
    { name: 'ECDSA', namedCurve: 'P-256' },
    true,
    ['sign', 'verify'],
  );
  const mdoc = await issueTestMdoc({
    issuer: { privateKeyJwk: leaf.privateKeyJwk, x5c: leaf.x5c },
    devicePublicJwk: await webcrypto.subtle.exportKey('jwk', publicKey),
    docType: PID,
    namespaces: { [PID]: { given_name: 'Erika', age_over_18: true } },
  });
  const vpToken = await presentTestMdoc(mdoc, {
    ...REQUEST,
    devicePrivateJwk: await webcrypto.subtle.exportKey('jwk', privateKey),
    disclose: { [PID]: ['age_over_18'] },
  });
  return { vpToken, caDer: new Uint8Array(ca.certificate.rawData) };
}

/** Runs @owf/mdoc's own Verifier with our context and collects its failed checks. */
async function failedChecks(vpToken: string, trusted: Uint8Array[], nonce = REQUEST.nonce) {
  const failed: VerificationAssessment[] = [];
  const sessionTranscript = await SessionTranscript.forOid4Vp({ ...REQUEST, nonce }, mdocContext);
  await Verifier.verifyDeviceResponse(
    {
      deviceResponse: Buffer.from(vpToken, 'base64url'),
      sessionTranscript,
      trustedCertificates: trusted,
      onCheck: (check) => {
        if (check.status === 'FAILED') failed.push(check);
      },
    },
    mdocContext,
  );
  return failed.map((check) => check.check);
}

describe('mdocContext: the callbacks @owf/mdoc runs on (Node WebCrypto, chains by @itp/x509)', () => {
  it("passes @owf/mdoc's own Verifier on an issued and presented PID", async () => {
    const { vpToken, caDer } = await presentation();
    expect(await failedChecks(vpToken, [caDer])).toEqual([]);
  });

  it("fails @owf/mdoc's chain check (through @itp/x509) for another anchor", async () => {
    const { vpToken } = await presentation();
    const other = await createCa({ subject: 'CN=Other CA,C=DE' });
    expect(await failedChecks(vpToken, [new Uint8Array(other.certificate.rawData)])).toEqual([
      'Issuer certificate must be valid',
    ]);
  });

  it("fails @owf/mdoc's device signature check for another nonce", async () => {
    const { vpToken, caDer } = await presentation();
    expect(await failedChecks(vpToken, [caDer], 'other-nonce')).toEqual([
      'Device signature must be valid',
    ]);
  });

  it('refuses a COSE_Sign1 carrying a payload where the verifier sets the detached one', async () => {
    const { privateKey, publicKey } = await webcrypto.subtle.generateKey(
      { name: 'ECDSA', namedCurve: 'P-256' },
      true,
      ['sign', 'verify'],
    );
    const signed = await Sign1.create(
      {
        protectedHeaders: new Map([[1, SignatureAlgorithm.ES256]]),
        payload: new TextEncoder().encode('another session'),
        signingKey: CoseKey.fromJwk({ ...(await webcrypto.subtle.exportKey('jwk', privateKey)) }),
        algorithm: SignatureAlgorithm.ES256,
      },
      mdocContext,
    );
    const key = CoseKey.fromJwk({ ...(await webcrypto.subtle.exportKey('jwk', publicKey)) });
    expect(await mdocContext.cose.sign1.verify({ key, sign1: signed })).toBe(true);

    signed.detachedPayload = new TextEncoder().encode('this session');
    expect(await mdocContext.cose.sign1.verify({ key, sign1: signed })).toBe(false);
  });

  it('refuses device MAC (no reader ephemeral key in OpenID4VP)', () => {
    expect(() => mdocContext.cose.mac0.sign({} as never)).toThrow(UnsupportedMdocOperationError);
  });

  it('reads certificate data for @owf/mdoc (subject, issuer, validity, SHA-256 thumbprint)', async () => {
    const ca = await createCa({ subject: 'CN=Data CA,C=DE' });
    const data = await mdocContext.x509.getCertificateData({
      certificate: new Uint8Array(ca.certificate.rawData),
    });
    expect(data).toMatchObject({ subjectName: 'CN=Data CA\nC=DE', issuerName: 'CN=Data CA\nC=DE' });
    expect(data.notAfter.getTime()).toBeGreaterThan(Date.now());
    expect(data.thumbprint).toMatch(/^[0-9a-f]{64}$/);
    expect(
      mdocContext.x509.getIssuerNameField({
        certificate: new Uint8Array(ca.certificate.rawData),
        field: 'C',
      }),
    ).toEqual(['DE']);
  });
});
