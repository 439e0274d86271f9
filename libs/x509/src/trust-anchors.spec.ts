import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { CertificateBundleError } from './certificate-bundle-error.js';
import { createCa } from './create-ca.js';
import { trustAnchorsFrom } from './trust-anchors.js';

describe('trustAnchorsFrom', () => {
  it('joins the certificates of several bundles, each one once', async () => {
    const one = await createCa({ subject: 'CN=One' });
    const two = await createCa({ subject: 'CN=Two' });
    const anchors = trustAnchorsFrom([`${one.pem}${two.pem}`, one.pem, '']);
    expect(anchors.certificates.map((c) => c.subject)).toEqual(['CN=One', 'CN=Two']);
    expect(trustAnchorsFrom([]).certificates).toEqual([]);
  });

  it('refuses a malformed bundle', () => {
    expect(() => trustAnchorsFrom(['garbage'])).toThrow(CertificateBundleError);
  });
});
