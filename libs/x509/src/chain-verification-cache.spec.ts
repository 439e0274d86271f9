import 'reflect-metadata';
import { describe, expect, it, jest } from '@jest/globals';
import { KeyUsageFlags } from '@peculiar/x509';
import { ChainVerificationCache } from './chain-verification-cache.js';
import {
  generateCertificate,
  type CertificateParams,
  type CertificateWithKey,
} from './generate-certificate.js';
import type { TrustAnchors } from './trust-anchors.js';
import { UntrustedCertificateError } from './untrusted-certificate-error.js';
import { verifyCertificateChain } from './verify-certificate-chain.js';

const DAY = 24 * 60 * 60 * 1000;
const CA_USAGE = KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign;

function make(
  params: Partial<CertificateParams> & { subject: string },
): Promise<CertificateWithKey> {
  return generateCertificate({
    ca: false,
    keyUsages: KeyUsageFlags.digitalSignature,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 30 * DAY),
    ...params,
  });
}
const ca = (subject: string, notAfter = new Date(Date.now() + 365 * DAY)) =>
  make({ subject, ca: true, keyUsages: CA_USAGE, notAfter });
const b64 = (c: CertificateWithKey): string => c.certificate.toString('base64');
const anchorsOf = (...cas: CertificateWithKey[]): TrustAnchors => ({
  certificates: cas.map((c) => c.certificate),
});

function counted() {
  const verify = jest.fn(verifyCertificateChain);
  return { verify, cache: new ChainVerificationCache(3, verify) };
}

async function rule(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UntrustedCertificateError);
  return (err as UntrustedCertificateError).rule;
}

describe('ChainVerificationCache', () => {
  it('verifies a chain in full once, then answers the same leaf and key from memory', async () => {
    const root = await ca('CN=Root');
    const leaf = await make({ subject: 'CN=Issuer', issuer: root });
    const anchors = anchorsOf(root);
    const { verify, cache } = counted();
    const first = await cache.verifyCertificateChain([b64(leaf)], anchors);
    const second = await cache.verifyCertificateChain([b64(leaf)], anchors);
    expect(second).toBe(first);
    expect(second.subject).toBe('CN=Issuer');
    expect(verify).toHaveBeenCalledTimes(1);
    expect(first.validUntil.getTime()).toBe(leaf.certificate.notAfter.getTime());
  });

  it('refuses an expired leaf that it accepted while the leaf was valid', async () => {
    const root = await ca('CN=Root');
    const notAfter = new Date(Date.now() + DAY);
    const leaf = await make({ subject: 'CN=Issuer', issuer: root, notAfter });
    const anchors = anchorsOf(root);
    const { verify, cache } = counted();
    await cache.verifyCertificateChain([b64(leaf)], anchors, new Date());
    const later = new Date(notAfter.getTime() + 1000);
    expect(await rule(cache.verifyCertificateChain([b64(leaf)], anchors, later))).toBe('validity');
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('stops at the earliest notAfter of the path, the trust anchor included', async () => {
    const anchorEnd = new Date(Date.now() + 2 * DAY);
    const root = await ca('CN=Short root', anchorEnd);
    const leaf = await make({ subject: 'CN=Issuer', issuer: root });
    const anchors = anchorsOf(root);
    const { cache } = counted();
    const verified = await cache.verifyCertificateChain([b64(leaf)], anchors);
    expect(verified.validUntil.getTime()).toBe(root.certificate.notAfter.getTime());
    const after = new Date(anchorEnd.getTime() + 1000);
    expect(await rule(cache.verifyCertificateChain([b64(leaf)], anchors, after))).toBe('validity');
  });

  it('refuses an untrusted root with a good chain of another issuer cached', async () => {
    const trusted = await ca('CN=Trusted root');
    const rogue = await ca('CN=Trusted root'); // the same name, another key
    const good = await make({ subject: 'CN=Good issuer', issuer: trusted });
    const bad = await make({ subject: 'CN=Good issuer', issuer: rogue });
    const anchors = anchorsOf(trusted);
    const { cache } = counted();
    await cache.verifyCertificateChain([b64(good)], anchors);
    expect(await rule(cache.verifyCertificateChain([b64(bad)], anchors))).toBe('untrusted-anchor');
    expect(await rule(cache.verifyCertificateChain([b64(bad), b64(rogue)], anchors))).toBe(
      'untrusted-anchor',
    );
    expect(cache.size).toBe(1);
  });

  it('refuses a tampered chain (one byte of a cached certificate changed, or junk added)', async () => {
    const root = await ca('CN=Root');
    const leaf = await make({ subject: 'CN=Issuer', issuer: root });
    const anchors = anchorsOf(root);
    const { cache } = counted();
    await cache.verifyCertificateChain([b64(leaf)], anchors);
    const der = Buffer.from(leaf.certificate.rawData);
    const tampered = Buffer.from(der);
    const at = tampered.length - 10; // inside the signature
    tampered.writeUInt8(tampered.readUInt8(at) ^ 0x01, at);
    // Its signature no longer verifies under the anchor.
    expect(await rule(cache.verifyCertificateChain([tampered.toString('base64')], anchors))).toBe(
      'untrusted-anchor',
    );
    expect(await rule(cache.verifyCertificateChain([`${b64(leaf)} `], anchors))).toBe(
      'unparsable-certificate',
    );
  });

  it('takes a changed trust list at once: a removed anchor refuses its cached chains', async () => {
    const root = await ca('CN=Root');
    const other = await ca('CN=Other root');
    const leaf = await make({ subject: 'CN=Issuer', issuer: root });
    const { verify, cache } = counted();
    // A refreshing anchor set (as auth-service's joinedWith): the same object, new certificates.
    let current = [root.certificate, other.certificate];
    const anchors: TrustAnchors = {
      get certificates() {
        return current;
      },
    };
    await cache.verifyCertificateChain([b64(leaf)], anchors);
    await cache.verifyCertificateChain([b64(leaf)], anchors);
    expect(verify).toHaveBeenCalledTimes(1);
    current = [other.certificate];
    expect(await rule(cache.verifyCertificateChain([b64(leaf)], anchors))).toBe('untrusted-anchor');
    current = [other.certificate, root.certificate];
    await cache.verifyCertificateChain([b64(leaf)], anchors);
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('never remembers a refusal, and keeps at most maxEntries chains', async () => {
    const root = await ca('CN=Root');
    const anchors = anchorsOf(root);
    const leaves = await Promise.all(
      ['CN=a', 'CN=b', 'CN=c', 'CN=d'].map((subject) => make({ subject, issuer: root })),
    );
    const { verify, cache } = counted();
    const unknown = await ca('CN=Unknown');
    const orphan = await make({ subject: 'CN=orphan', issuer: unknown });
    expect(await rule(cache.verifyCertificateChain([b64(orphan)], anchors))).toBe(
      'untrusted-anchor',
    );
    expect(await rule(cache.verifyCertificateChain([b64(orphan)], anchors))).toBe(
      'untrusted-anchor',
    );
    expect(verify).toHaveBeenCalledTimes(2);
    for (const leaf of leaves) await cache.verifyCertificateChain([b64(leaf)], anchors);
    expect(cache.size).toBe(3);
    await cache.verifyCertificateChain([b64(leaves[0]!)], anchors); // the oldest was dropped
    expect(verify).toHaveBeenCalledTimes(7);
  });
});
