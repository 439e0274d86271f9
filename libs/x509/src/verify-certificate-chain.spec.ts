import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { KeyUsageFlags } from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { createCa } from './create-ca.js';
import {
  ES256_KEY_ALGORITHM,
  generateCertificate,
  type CertificateParams,
  type CertificateWithKey,
} from './generate-certificate.js';
import { issueLeaf } from './issue-leaf.js';
import { trustAnchorsFrom, type TrustAnchors } from './trust-anchors.js';
import { UntrustedCertificateError } from './untrusted-certificate-error.js';
import {
  BRAINPOOL_CA_PEM,
  BRAINPOOL_LEAF_UNDER_P256_CA_PEM,
  P256_CA_PEM,
  P256_LEAF_UNDER_BRAINPOOL_CA_PEM,
} from './testing/brainpool-fixtures.js';
import {
  MAX_CERTIFICATE_BYTES,
  MAX_CHAIN_LENGTH,
  verifyCertificateChain,
} from './verify-certificate-chain.js';

const DAY = 24 * 60 * 60 * 1000;
const CA_USAGE = KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign;
const SIGNING = KeyUsageFlags.digitalSignature;

function make(
  params: Partial<CertificateParams> & { subject: string },
): Promise<CertificateWithKey> {
  return generateCertificate({
    ca: false,
    keyUsages: SIGNING,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 30 * DAY),
    ...params,
  });
}

const b64 = (c: CertificateWithKey): string => c.certificate.toString('base64');
const anchorsOf = (...cas: CertificateWithKey[]): TrustAnchors => ({
  certificates: cas.map((ca) => ca.certificate),
});

async function refusal(promise: Promise<unknown>): Promise<UntrustedCertificateError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UntrustedCertificateError);
  return err as UntrustedCertificateError;
}

describe('verifyCertificateChain', () => {
  it('accepts a leaf and its CA, giving the leaf key (usable to verify), subject and SAN dNSNames', async () => {
    const ca = await createCa({ subject: 'CN=Test CA' });
    const leaf = await issueLeaf(ca, { subject: 'CN=verifier', dnsNames: ['verifier.example'] });
    const verified = await verifyCertificateChain(leaf.x5c, trustAnchorsFrom([ca.pem]));
    expect(verified.subject).toBe('CN=verifier');
    expect(verified.dnsNames).toEqual(['verifier.example']);
    const { kty, crv, x, y } = leaf.privateKeyJwk;
    expect(verified.publicKeyJwk).toEqual({ kty, crv, x, y });
    expect(verified.leaf.toString('base64')).toBe(leaf.x5c[0]);
    const data = new TextEncoder().encode('signed');
    const signature = await webcrypto.subtle.sign(ES256_KEY_ALGORITHM, leaf.privateKey, data);
    await expect(
      webcrypto.subtle.verify(ES256_KEY_ALGORITHM, verified.publicKey, signature, data),
    ).resolves.toBe(true);
  });

  it('accepts DER bytes (an mdoc x5chain), a chain without its anchor and one through an intermediate', async () => {
    const root = await make({ subject: 'CN=Root', ca: true, keyUsages: CA_USAGE });
    const intermediate = await make({
      subject: 'CN=Intermediate',
      ca: true,
      pathLength: 0,
      keyUsages: CA_USAGE,
      issuer: root,
    });
    const leaf = await make({ subject: 'CN=Issuer', issuer: intermediate });
    const anchors = anchorsOf(root);
    const der = [leaf, intermediate].map((c) => new Uint8Array(c.certificate.rawData));
    await expect(verifyCertificateChain(der, anchors)).resolves.toMatchObject({
      subject: 'CN=Issuer',
      dnsNames: [],
    });
    await expect(
      verifyCertificateChain([b64(leaf), b64(intermediate), b64(root)], anchors),
    ).resolves.toMatchObject({ subject: 'CN=Issuer' });
    const direct = await make({ subject: 'CN=Direct', issuer: root });
    await expect(verifyCertificateChain([b64(direct)], anchors)).resolves.toMatchObject({
      subject: 'CN=Direct',
    });
  });

  it('refuses an empty chain and an overlong one', async () => {
    const ca = await createCa({ subject: 'CN=Test CA' });
    expect((await refusal(verifyCertificateChain([], trustAnchorsFrom([ca.pem])))).rule).toBe(
      'empty-chain',
    );
    const long = Array.from({ length: MAX_CHAIN_LENGTH + 1 }, () => b64(ca));
    expect((await refusal(verifyCertificateChain(long, trustAnchorsFrom([ca.pem])))).rule).toBe(
      'chain-too-long',
    );
  });

  it('refuses an entry that is not base64, not a certificate, or has bytes after it', async () => {
    const ca = await createCa({ subject: 'CN=Test CA' });
    const leaf = await issueLeaf(ca, { subject: 'CN=leaf' });
    const anchors = trustAnchorsFrom([ca.pem]);
    const der = Buffer.from(leaf.x5c[0] as string, 'base64');
    for (const bad of [
      'not base64!',
      Buffer.from('garbage').toString('base64'),
      Buffer.concat([der, Buffer.from([0])]).toString('base64'),
      der.subarray(0, der.length - 3),
      new Uint8Array(MAX_CERTIFICATE_BYTES + 1),
    ]) {
      const err = await refusal(verifyCertificateChain([bad], anchors));
      expect(err.rule).toBe('unparsable-certificate');
      expect(err.message).toContain('x5c[0]');
    }
  });

  it('refuses an expired leaf, a leaf not yet valid, an expired CA and an expired anchor', async () => {
    const ca = await make({ subject: 'CN=CA', ca: true, keyUsages: CA_USAGE });
    const anchors = anchorsOf(ca);
    const expired = await make({
      subject: 'CN=old',
      issuer: ca,
      notBefore: new Date(Date.now() - 10 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const early = await make({
      subject: 'CN=early',
      issuer: ca,
      notBefore: new Date(Date.now() + DAY),
    });
    expect((await refusal(verifyCertificateChain([b64(expired)], anchors))).message).toContain(
      'expired',
    );
    expect((await refusal(verifyCertificateChain([b64(early)], anchors))).rule).toBe('validity');
    const leaf = await make({ subject: 'CN=leaf', issuer: ca });
    const later = new Date(Date.now() + 60 * DAY);
    expect((await refusal(verifyCertificateChain([b64(leaf)], anchors, later))).rule).toBe(
      'validity',
    );
    const oldCa = await make({
      subject: 'CN=Old CA',
      ca: true,
      keyUsages: CA_USAGE,
      notBefore: new Date(Date.now() - 10 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const underOld = await make({ subject: 'CN=under old', issuer: oldCa });
    const err = await refusal(verifyCertificateChain([b64(underOld)], anchorsOf(oldCa)));
    expect(err.rule).toBe('validity');
    expect(err.message).toContain('trust anchor');
  });

  it('refuses a self-signed leaf that is not an anchor, and one that is (anchors are CAs)', async () => {
    const ca = await createCa({ subject: 'CN=Test CA' });
    const selfSigned = await make({ subject: 'CN=self' });
    const err = await refusal(
      verifyCertificateChain([b64(selfSigned)], trustAnchorsFrom([ca.pem])),
    );
    expect(err.rule).toBe('untrusted-anchor');
    const pinned = await refusal(verifyCertificateChain([b64(selfSigned)], anchorsOf(selfSigned)));
    expect(pinned.rule).toBe('not-a-ca');
  });

  it('refuses a leaf signed by another CA (even one named as the trusted CA), with that CA in x5c or anchor-less', async () => {
    const trusted = await createCa({ subject: 'CN=Trusted CA' });
    const impostor = await createCa({ subject: 'CN=Trusted CA' });
    const other = await createCa({ subject: 'CN=Other CA' });
    const anchors = trustAnchorsFrom([trusted.pem]);
    for (const ca of [impostor, other]) {
      const leaf = await issueLeaf(ca, { subject: 'CN=leaf' });
      expect((await refusal(verifyCertificateChain(leaf.x5c, anchors))).rule).toBe(
        'untrusted-anchor',
      );
      expect((await refusal(verifyCertificateChain(leaf.x5c.slice(0, 1), anchors))).rule).toBe(
        'untrusted-anchor',
      );
    }
    const leaf = await issueLeaf(trusted, { subject: 'CN=leaf' });
    expect((await refusal(verifyCertificateChain(leaf.x5c, { certificates: [] }))).rule).toBe(
      'untrusted-anchor',
    );
  });

  it('refuses an intermediate whose signature is not the one of the next certificate', async () => {
    const root = await make({ subject: 'CN=Root', ca: true, keyUsages: CA_USAGE });
    const intermediate = await make({
      subject: 'CN=Intermediate',
      ca: true,
      keyUsages: CA_USAGE,
      issuer: root,
    });
    const forged = await make({ subject: 'CN=Intermediate', ca: true, keyUsages: CA_USAGE });
    const leaf = await make({ subject: 'CN=leaf', issuer: forged });
    const err = await refusal(
      verifyCertificateChain([b64(leaf), b64(intermediate)], anchorsOf(root)),
    );
    expect(err.rule).toBe('chain-signature');
  });

  it('refuses a chain in the wrong order', async () => {
    const root = await make({ subject: 'CN=Root', ca: true, keyUsages: CA_USAGE });
    const intermediate = await make({
      subject: 'CN=Intermediate',
      ca: true,
      keyUsages: CA_USAGE,
      issuer: root,
    });
    const leaf = await make({ subject: 'CN=leaf', issuer: intermediate });
    const anchors = anchorsOf(root);
    const swapped = await refusal(
      verifyCertificateChain([b64(leaf), b64(root), b64(intermediate)], anchors),
    );
    expect(swapped.rule).toBe('chain-order');
    const reversed = await refusal(verifyCertificateChain([b64(intermediate), b64(leaf)], anchors));
    expect(reversed.rule).toBe('leaf-is-ca');
  });

  it('refuses a CA certificate presented as the leaf', async () => {
    const root = await make({ subject: 'CN=Root', ca: true, keyUsages: CA_USAGE });
    const intermediate = await make({
      subject: 'CN=Intermediate',
      ca: true,
      keyUsages: CA_USAGE,
      issuer: root,
    });
    const err = await refusal(verifyCertificateChain([b64(intermediate)], anchorsOf(root)));
    expect(err.rule).toBe('leaf-is-ca');
  });

  it('refuses a leaf used as an issuer, in the chain or as the anchor', async () => {
    const ca = await make({ subject: 'CN=CA', ca: true, keyUsages: CA_USAGE | SIGNING });
    const middle = await make({ subject: 'CN=middle', issuer: ca });
    const leaf = await make({ subject: 'CN=leaf', issuer: middle });
    const inChain = await refusal(verifyCertificateChain([b64(leaf), b64(middle)], anchorsOf(ca)));
    expect(inChain.rule).toBe('not-a-ca');
    const asAnchor = await refusal(verifyCertificateChain([b64(leaf)], anchorsOf(middle)));
    expect(asAnchor.rule).toBe('not-a-ca');
  });

  it('refuses a CA without keyCertSign, a path longer than pathLenConstraint, a leaf without digitalSignature', async () => {
    const noCertSign = await make({
      subject: 'CN=No cert sign',
      ca: true,
      keyUsages: KeyUsageFlags.cRLSign,
    });
    const leaf1 = await make({ subject: 'CN=leaf', issuer: noCertSign });
    expect((await refusal(verifyCertificateChain([b64(leaf1)], anchorsOf(noCertSign)))).rule).toBe(
      'ca-key-usage',
    );
    const root = await make({ subject: 'CN=Root', ca: true, pathLength: 0, keyUsages: CA_USAGE });
    const intermediate = await make({
      subject: 'CN=Intermediate',
      ca: true,
      keyUsages: CA_USAGE,
      issuer: root,
    });
    const leaf2 = await make({ subject: 'CN=leaf', issuer: intermediate });
    expect(
      (await refusal(verifyCertificateChain([b64(leaf2), b64(intermediate)], anchorsOf(root))))
        .rule,
    ).toBe('path-length');
    const agreement = await make({
      subject: 'CN=agreement',
      issuer: intermediate,
      keyUsages: KeyUsageFlags.keyAgreement,
    });
    expect(
      (await refusal(verifyCertificateChain([b64(agreement)], anchorsOf(intermediate)))).rule,
    ).toBe('leaf-key-usage');
  });

  it('says when a key cannot be used (brainpool) instead of calling the signature forged', async () => {
    const x5cOf = (pem: string): string[] =>
      trustAnchorsFrom([pem]).certificates.map((c) => c.toString('base64'));
    const leafKey = await refusal(
      verifyCertificateChain(
        x5cOf(BRAINPOOL_LEAF_UNDER_P256_CA_PEM),
        trustAnchorsFrom([P256_CA_PEM]),
      ),
    );
    expect(leafKey.rule).toBe('unsupported-key');
    expect(leafKey.message).toContain('x5c[0]');
    const caKey = await refusal(
      verifyCertificateChain(
        x5cOf(P256_LEAF_UNDER_BRAINPOOL_CA_PEM).concat(x5cOf(BRAINPOOL_CA_PEM)),
        trustAnchorsFrom([BRAINPOOL_CA_PEM]),
      ),
    );
    expect(caKey.rule).toBe('unsupported-key');
    expect(caKey.message).toContain('x5c[1]');
    const anchorKey = await refusal(
      verifyCertificateChain(
        x5cOf(P256_LEAF_UNDER_BRAINPOOL_CA_PEM),
        trustAnchorsFrom([BRAINPOOL_CA_PEM]),
      ),
    );
    expect(anchorKey.rule).toBe('unsupported-key');
    expect(anchorKey.message).toContain('trust anchor');
  });
});
