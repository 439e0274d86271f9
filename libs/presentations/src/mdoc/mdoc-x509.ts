import { X509Certificate } from 'node:crypto';
import { CoseKey, type MdocContext } from '@owf/mdoc';
import { trustAnchorsFrom, verifyCertificateChain } from '@itp/x509';

function parse(der: Uint8Array): X509Certificate {
  return new X509Certificate(der);
}

/** The values of one attribute (`C`, `ST`, `CN`…) of a distinguished name as Node prints it. */
function nameField(name: string, field: string): string[] {
  return name
    .split('\n')
    .map((line) => line.split('='))
    .filter(([key]) => key === field)
    .map(([, ...value]) => value.join('='));
}

/**
 * @owf/mdoc's certificate callbacks: parsing by Node's X509Certificate, the chain check delegated
 * to @itp/x509 (the rules the SD-JWT VC issuer chain follows too: a path to a trust anchor,
 * validity at `now`, CA constraints).
 */
export const mdocX509: MdocContext['x509'] = {
  getIssuerNameField: ({ certificate, field }) => nameField(parse(certificate).issuer, field),

  getPublicKey: ({ certificate }) =>
    CoseKey.fromJwk(
      parse(certificate).publicKey.export({ format: 'jwk' }) as Record<string, unknown>,
    ),

  verifyCertificateChain: async ({ trustedCertificates, x5chain, now }) => {
    const anchors = trustAnchorsFrom(trustedCertificates.map((der) => parse(der).toString()));
    await verifyCertificateChain(x5chain, anchors, now);
  },

  getCertificateData: ({ certificate }) => {
    const parsed = parse(certificate);
    return {
      issuerName: parsed.issuer,
      subjectName: parsed.subject,
      serialNumber: parsed.serialNumber,
      thumbprint: parsed.fingerprint256.replaceAll(':', '').toLowerCase(),
      notBefore: new Date(parsed.validFrom),
      notAfter: new Date(parsed.validTo),
      pem: parsed.toString(),
    };
  },
};
