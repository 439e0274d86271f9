import { KeyUsageFlags, type X509Certificate } from '@peculiar/x509';
import { generateCertificate } from './generate-certificate.js';
import { validityPeriod } from './validity-period.js';
import type { CryptoKey } from './web-crypto-types.js';

export interface CreateCaOptions {
  /** A distinguished name, e.g. `CN=ITP dev CA`. */
  subject: string;
  /** Default 3650 days. */
  validityDays?: number;
}

export interface CreatedCa {
  certificate: X509Certificate;
  privateKey: CryptoKey;
  pem: string;
}

/**
 * A self-signed root CA (P-256, ES256) that may issue leaves only (pathLenConstraint 0,
 * keyCertSign and cRLSign): for the dev stack and tests, never for production trust.
 */
export async function createCa(opts: CreateCaOptions): Promise<CreatedCa> {
  const { certificate, privateKey } = await generateCertificate({
    subject: opts.subject,
    ca: true,
    pathLength: 0,
    keyUsages: KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign,
    ...validityPeriod(opts.validityDays ?? 3650),
  });
  return { certificate, privateKey, pem: certificate.toString('pem') };
}
