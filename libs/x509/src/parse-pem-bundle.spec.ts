import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { CertificateBundleError } from './certificate-bundle-error.js';
import { createCa } from './create-ca.js';
import { parsePemBundle } from './parse-pem-bundle.js';

function bundleError(pem: string): CertificateBundleError {
  try {
    parsePemBundle(pem);
  } catch (err) {
    expect(err).toBeInstanceOf(CertificateBundleError);
    return err as CertificateBundleError;
  }
  throw new Error('the bundle was accepted');
}

describe('parsePemBundle', () => {
  it('reads every certificate in order, ignoring text between the blocks', async () => {
    const one = await createCa({ subject: 'CN=One' });
    const two = await createCa({ subject: 'CN=Two' });
    const bundle = `# Issuer: CN=One\n${one.pem}\nsubject=CN=Two\n${two.pem.replace(/\n/g, '\r\n')}`;
    expect(parsePemBundle(bundle).map((c) => c.subject)).toEqual(['CN=One', 'CN=Two']);
  });

  it('gives [] for an empty or blank bundle', () => {
    expect(parsePemBundle('')).toEqual([]);
    expect(parsePemBundle(' \n\t\n')).toEqual([]);
  });

  it('refuses a block that is not a certificate (a private key) without quoting it', async () => {
    const ca = await createCa({ subject: 'CN=One' });
    const key =
      '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n';
    const err = bundleError(`${ca.pem}\n${key}`);
    expect(err.message).toContain('entry 2');
    expect(err.message).toContain('PRIVATE KEY');
    expect(err.message).not.toContain('MIGHAgEA');
  });

  it('names the entry that is garbage, not base64, truncated or unterminated', async () => {
    const ca = await createCa({ subject: 'CN=One' });
    const body = ca.pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    const block = (b: string): string =>
      `-----BEGIN CERTIFICATE-----\n${b}\n-----END CERTIFICATE-----\n`;
    expect(bundleError(`${ca.pem}${block('Z2FyYmFnZQ==')}`).message).toContain('entry 2');
    expect(bundleError(`${ca.pem}${ca.pem}${block('not*base64')}`).message).toContain('entry 3');
    expect(bundleError(block(body.slice(0, 40))).message).toContain('entry 1');
    expect(bundleError(`${ca.pem}-----BEGIN CERTIFICATE-----\n${body}\n`).message).toContain(
      'entry 2',
    );
  });

  it('refuses text that holds no PEM block at all (a DER file, a wrong path)', () => {
    expect(bundleError('hello').message).toContain('no -----BEGIN CERTIFICATE-----');
  });
});
