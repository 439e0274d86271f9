import { createCa, issueLeaf } from '@itp/x509';

/** auth-service's environment of a presentation-request verifier with an x509 identity. */
export interface TestVerifierEnv {
  VERIFIER_SIGNING_KEY: string;
  VERIFIER_CERTIFICATE_CHAIN: string;
}

/**
 * Test helper: the verifier identity of presentation requests (`x509_san_dns:<host>`): a leaf
 * for `host` under a new test CA, as auth-service's VERIFIER_SIGNING_KEY and
 * VERIFIER_CERTIFICATE_CHAIN (leaf, then the CA), and the CA's PEM, which a wallet trusts.
 */
export async function createTestVerifier(
  host: string,
): Promise<{ caPem: string; env: TestVerifierEnv }> {
  const ca = await createCa({ subject: 'CN=Test verifier CA' });
  const leaf = await issueLeaf(ca, { subject: `CN=${host}`, dnsNames: [host] });
  return {
    caPem: ca.pem,
    env: {
      VERIFIER_SIGNING_KEY: JSON.stringify(leaf.privateKeyJwk),
      VERIFIER_CERTIFICATE_CHAIN: leaf.certificate.toString('pem') + '\n' + ca.pem,
    },
  };
}
