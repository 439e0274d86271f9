import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CertificateBundleError } from './certificate-bundle-error.js';
import { createCa } from './create-ca.js';
import { issueLeaf } from './issue-leaf.js';
import { loadTrustAnchorsFile } from './load-trust-anchors-file.js';

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'itp-x509-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('loadTrustAnchorsFile', () => {
  it('reads the bundle file and adds the extra PEMs', async () => {
    await withDir(async (dir) => {
      const one = await createCa({ subject: 'CN=One' });
      const dev = await createCa({ subject: 'CN=Dev' });
      const file = join(dir, 'trusted.pem');
      await writeFile(file, one.pem);
      const anchors = await loadTrustAnchorsFile(file, [dev.pem]);
      expect(anchors.certificates.map((c) => c.subject)).toEqual(['CN=One', 'CN=Dev']);
    });
  });

  it('gives only the extra PEMs (or nothing) when no file is configured', async () => {
    const dev = await createCa({ subject: 'CN=Dev' });
    expect((await loadTrustAnchorsFile(undefined)).certificates).toEqual([]);
    expect((await loadTrustAnchorsFile('', [dev.pem])).certificates).toHaveLength(1);
  });

  it('names the file when it is missing, unreadable or malformed', async () => {
    await withDir(async (dir) => {
      const missing = join(dir, 'missing.pem');
      await expect(loadTrustAnchorsFile(missing)).rejects.toThrow(
        `trusted certificates file ${missing} does not exist`,
      );
      await expect(loadTrustAnchorsFile(missing)).rejects.toBeInstanceOf(CertificateBundleError);
      await expect(loadTrustAnchorsFile(dir)).rejects.toThrow(/cannot be read \(EISDIR\)/);
      const garbage = join(dir, 'garbage.pem');
      await writeFile(garbage, '-----BEGIN CERTIFICATE-----\nZm9v\n-----END CERTIFICATE-----\n');
      await expect(loadTrustAnchorsFile(garbage)).rejects.toThrow(
        `trusted certificates (${garbage}): PEM bundle entry 1 is not an X.509 certificate`,
      );
    });
  });

  it('refuses a bundle holding a leaf (one extracted from a trusted list with its CAs)', async () => {
    await withDir(async (dir) => {
      const ca = await createCa({ subject: 'CN=CA' });
      const leaf = await issueLeaf(ca, { subject: 'CN=service leaf' });
      const file = join(dir, 'trusted.pem');
      await writeFile(file, `${ca.pem}${leaf.certificate.toString('pem')}\n`);
      await expect(loadTrustAnchorsFile(file)).rejects.toThrow(
        `trusted certificates (${file}): CN=service leaf is not a CA certificate`,
      );
    });
  });
});
