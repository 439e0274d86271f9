import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { BasicConstraintsExtension, KeyUsageFlags, KeyUsagesExtension } from '@peculiar/x509';
import { createCa } from './create-ca.js';
import { parsePemBundle } from './parse-pem-bundle.js';

describe('createCa', () => {
  it('creates a self-signed P-256 CA that may sign leaves only, for the given days', async () => {
    const before = Date.now();
    const ca = await createCa({ subject: 'CN=Test CA, O=ITP', validityDays: 10 });
    expect(ca.certificate.subject).toBe('CN=Test CA, O=ITP');
    expect(ca.certificate.issuer).toBe(ca.certificate.subject);
    await expect(ca.certificate.isSelfSigned()).resolves.toBe(true);
    const constraints = ca.certificate.getExtension(BasicConstraintsExtension);
    expect(constraints).toMatchObject({ ca: true, pathLength: 0, critical: true });
    const usages = ca.certificate.getExtension(KeyUsagesExtension)?.usages ?? 0;
    expect(usages & KeyUsageFlags.keyCertSign).toBeTruthy();
    expect(usages & KeyUsageFlags.digitalSignature).toBeFalsy();
    expect(ca.certificate.publicKey.algorithm).toMatchObject({ namedCurve: 'P-256' });
    const days = (ca.certificate.notAfter.getTime() - before) / 86_400_000;
    expect(Math.round(days)).toBe(10);
    expect(ca.certificate.notBefore.getTime()).toBeLessThan(before);
    expect(parsePemBundle(ca.pem)[0]?.subject).toBe('CN=Test CA, O=ITP');
    expect(ca.pem).not.toContain('PRIVATE');
  });

  it('refuses a validity that is not a positive number of days', async () => {
    await expect(createCa({ subject: 'CN=x', validityDays: 0 })).rejects.toThrow(RangeError);
    await expect(createCa({ subject: 'CN=x', validityDays: NaN })).rejects.toThrow(RangeError);
  });
});
