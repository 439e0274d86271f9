import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { BasicConstraintsExtension, KeyUsageFlags, KeyUsagesExtension } from '@peculiar/x509';
import { createCa } from './create-ca.js';
import { issueLeaf } from './issue-leaf.js';

describe('issueLeaf', () => {
  it('issues a signing leaf (not a CA) with SAN dNSNames, x5c leaf then CA', async () => {
    const ca = await createCa({ subject: 'CN=Test CA' });
    const leaf = await issueLeaf(ca, {
      subject: 'CN=verifier',
      dnsNames: ['localhost', 'verifier.test'],
      validityDays: 3,
      keyUsage: 'signing',
    });
    expect(leaf.certificate.issuer).toBe('CN=Test CA');
    await expect(
      leaf.certificate.verify({ publicKey: ca.certificate, signatureOnly: true }),
    ).resolves.toBe(true);
    expect(leaf.certificate.getExtension(BasicConstraintsExtension)?.ca).toBe(false);
    expect(leaf.certificate.getExtension(KeyUsagesExtension)?.usages).toBe(
      KeyUsageFlags.digitalSignature,
    );
    expect(leaf.x5c).toEqual([
      leaf.certificate.toString('base64'),
      ca.certificate.toString('base64'),
    ]);
    expect(Object.keys(leaf.privateKeyJwk).sort()).toEqual(['crv', 'd', 'kty', 'x', 'y']);
    expect(leaf.privateKeyJwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(leaf.certificate.notAfter.getTime() - Date.now()).toBeLessThan(3 * 86_400_000 + 1000);
  });

  it('issues a leaf without SAN when no dNSName is given', async () => {
    const ca = await createCa({ subject: 'CN=Test CA' });
    const leaf = await issueLeaf(ca, { subject: 'CN=issuer' });
    expect(leaf.certificate.getExtension('2.5.29.17')).toBeNull();
  });
});
