// Jest's ESM loader requires CommonJS dependencies while linking, before any module runs, so
// @peculiar/x509 (via @itp/x509) may load before @itp/x509's setup imports reflect-metadata.
import 'reflect-metadata';
import { jest } from '@jest/globals';
import {
  ChainVerificationCache,
  createCa,
  issueLeaf,
  trustAnchorsFrom,
  type TrustAnchors,
  X509Certificate,
} from '@itp/x509';
import { ES256 } from '@sd-jwt/crypto-nodejs';
import type { webcrypto } from 'node:crypto';
import { PresentationRefusedError } from '../errors.js';
import {
  issueTestSdJwtVc,
  presentTestSdJwtVc,
  testStatusList,
  TEST_SD_JWT_ISSUER,
  TEST_STATUS_LIST_URI,
  type IssueTestSdJwtVcOptions,
  type PresentTestSdJwtVcOptions,
  type TestSdJwtIssuer,
} from '../testing/sd-jwt-issuer.js';
import { DecodedStatusLists } from './decoded-status-lists.js';
import type { VerifySdJwtVcOptions } from './types.js';
import { verifySdJwtVcPresentation } from './verify-sd-jwt-vc-presentation.js';

const NONCE = 'nonce-7f3a';
const AUDIENCE = 'x509_san_dns:verifier.example';
const PID_VCT = 'urn:eudi:pid:1';
const PID_CLAIMS = {
  given_name: 'Erika',
  family_name: 'Mustermann',
  birthdate: '1964-08-12',
  age_over_18: true,
};
const PID_DISCLOSABLE = ['given_name', 'family_name', 'birthdate', 'age_over_18'];

interface KeyPair {
  publicKey: webcrypto.JsonWebKey;
  privateKey: webcrypto.JsonWebKey;
}

let anchors: TrustAnchors;
let issuer: TestSdJwtIssuer;
let foreignIssuer: TestSdJwtIssuer;
let holder: KeyPair;
let otherHolder: KeyPair;

beforeAll(async () => {
  const ca = await createCa({ subject: 'CN=Test PID Provider CA' });
  anchors = trustAnchorsFrom([ca.pem]);
  issuer = await issueLeaf(ca, { subject: 'CN=Test PID Provider', dnsNames: ['issuer.example'] });
  const foreignCa = await createCa({ subject: 'CN=Test PID Provider CA' });
  foreignIssuer = await issueLeaf(foreignCa, { subject: 'CN=Test PID Provider' });
  holder = await ES256.generateKeyPair();
  otherHolder = await ES256.generateKeyPair();
});

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

function issuePid(overrides: Partial<IssueTestSdJwtVcOptions> = {}): Promise<string> {
  return issueTestSdJwtVc({
    issuer,
    holderPublicJwk: holder.publicKey,
    vct: PID_VCT,
    claims: PID_CLAIMS,
    disclosable: PID_DISCLOSABLE,
    exp: nowSeconds() + 86_400,
    ...overrides,
  });
}

function present(
  credential: string,
  overrides: Partial<PresentTestSdJwtVcOptions> = {},
): Promise<string> {
  return presentTestSdJwtVc(credential, {
    holderPrivateJwk: holder.privateKey,
    disclose: ['age_over_18'],
    nonce: NONCE,
    audience: AUDIENCE,
    ...overrides,
  });
}

function verify(presentation: string, overrides: Partial<VerifySdJwtVcOptions> = {}) {
  return verifySdJwtVcPresentation(presentation, {
    nonce: NONCE,
    audience: AUDIENCE,
    trustAnchors: anchors,
    fetchStatusList: () => Promise.reject(new Error('no status list expected')),
    ...overrides,
  });
}

async function expectRefused(promise: Promise<unknown>, rule: string): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (refusal: unknown) => refusal,
  );
  expect(error).toBeInstanceOf(PresentationRefusedError);
  expect(error).toMatchObject({ rule, status: 401 });
}

/** The presentation's `~`-separated parts: issuer JWT, disclosures…, KB-JWT. */
function parts(presentation: string): string[] {
  return presentation.split('~');
}

function disclosureNamed(presentation: string, name: string): string {
  const found = parts(presentation)
    .slice(1, -1)
    .find((d) => (JSON.parse(Buffer.from(d, 'base64url').toString()) as unknown[])[1] === name);
  if (found === undefined) throw new Error(`no disclosure of ${name}`);
  return found;
}

describe('verifySdJwtVcPresentation: accepted', () => {
  it('an EUDI PID disclosing only age_over_18 proves exactly { age_over_18: true }', async () => {
    const verified = await verify(await present(await issuePid()));
    expect(verified).toEqual({
      format: 'dc+sd-jwt',
      vct: PID_VCT,
      issuer: TEST_SD_JWT_ISSUER,
      issuerCertificateSubject: 'CN=Test PID Provider',
      claims: { age_over_18: true },
      status: 'valid',
    });
  });

  it('returns the disclosed claims and the plain ones, never cnf, status or the time claims', async () => {
    const credential = await issuePid({
      claims: { ...PID_CLAIMS, issuing_country: 'DE' },
      status: { idx: 2, uri: TEST_STATUS_LIST_URI },
    });
    const statusList = await testStatusList({ issuer, bits: [0, 0, 0, 1, 0, 0, 0, 0] });
    const verified = await verify(
      await present(credential, { disclose: ['given_name', 'family_name'] }),
      {
        fetchStatusList: (uri) => Promise.resolve(uri === TEST_STATUS_LIST_URI ? statusList : ''),
      },
    );
    expect(verified.claims).toEqual({
      given_name: 'Erika',
      family_name: 'Mustermann',
      issuing_country: 'DE',
    });
  });

  it('takes a status list token signed by the issuer key without an x5c of its own', async () => {
    const credential = await issuePid({ status: { idx: 0, uri: TEST_STATUS_LIST_URI } });
    const statusList = await testStatusList({ issuer, bits: [0, 1], withoutX5c: true });
    const verified = await verify(await present(credential), {
      fetchStatusList: () => Promise.resolve(statusList),
    });
    expect(verified.status).toBe('valid');
  });
});

describe('verifySdJwtVcPresentation: refused', () => {
  it('format: not an SD-JWT', async () => {
    await expectRefused(verify('not-a-jwt'), 'format');
    await expectRefused(verify('a.b.c~'), 'format');
  });

  it('typ: the legacy vc+sd-jwt', async () => {
    await expectRefused(verify(await present(await issuePid({ typ: 'vc+sd-jwt' }))), 'typ');
  });

  it('issuer_untrusted: a chain to a CA that is not a trust anchor (same names, other keys)', async () => {
    await expectRefused(
      verify(await present(await issuePid({ issuer: foreignIssuer }))),
      'issuer_untrusted',
    );
  });

  it('issuer_untrusted: no x5c', async () => {
    await expectRefused(
      verify(await present(await issuePid({ issuer: { ...issuer, x5c: [] } }))),
      'issuer_untrusted',
    );
  });

  it('issuer_signature: a trusted x5c on a credential signed by another key', async () => {
    const forged = await issuePid({
      issuer: { privateKeyJwk: foreignIssuer.privateKeyJwk, x5c: issuer.x5c },
    });
    await expectRefused(verify(await present(forged)), 'issuer_signature');
  });

  it('issuer_signature: a plain claim changed after issuance', async () => {
    const credential = await issuePid({ claims: { ...PID_CLAIMS, issuing_country: 'DE' } });
    const [jwt = '', ...rest] = parts(credential);
    const [header, payload, signature] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const altered = Buffer.from(JSON.stringify({ ...claims, issuing_country: 'FR' })).toString(
      'base64url',
    );
    const tampered = [`${header}.${altered}.${signature}`, ...rest].join('~');
    await expectRefused(verify(await present(tampered)), 'issuer_signature');
  });

  it('disclosure: a disclosure whose value was changed (age_over_18 false → true)', async () => {
    const presentation = await present(
      await issuePid({ claims: { ...PID_CLAIMS, age_over_18: false } }),
    );
    const original = disclosureNamed(presentation, 'age_over_18');
    const [salt] = JSON.parse(Buffer.from(original, 'base64url').toString()) as [string];
    const forged = Buffer.from(JSON.stringify([salt, 'age_over_18', true])).toString('base64url');
    await expectRefused(verify(presentation.replace(original, forged)), 'disclosure');
  });

  it("disclosure: another credential's disclosure added", async () => {
    const other = await present(
      await issuePid({ claims: { ...PID_CLAIMS, given_name: 'Mallory' } }),
      {
        disclose: ['given_name'],
      },
    );
    const [jwt = '', ...rest] = parts(await present(await issuePid()));
    const spliced = [jwt, disclosureNamed(other, 'given_name'), ...rest].join('~');
    await expectRefused(verify(spliced), 'disclosure');
  });

  it('key_binding_missing: the KB-JWT stripped', async () => {
    const presentation = await present(await issuePid());
    await expectRefused(
      verify(presentation.slice(0, presentation.lastIndexOf('~') + 1)),
      'key_binding_missing',
    );
  });

  it('key_binding_signature: a KB-JWT signed by a key other than cnf.jwk', async () => {
    const presentation = await present(await issuePid(), {
      holderPrivateJwk: otherHolder.privateKey,
    });
    await expectRefused(verify(presentation), 'key_binding_signature');
  });

  it('key_binding_nonce: a KB-JWT made for another request', async () => {
    await expectRefused(
      verify(await present(await issuePid(), { nonce: 'replayed-nonce' })),
      'key_binding_nonce',
    );
  });

  it('key_binding_audience: a KB-JWT made for another verifier', async () => {
    const presentation = await present(await issuePid(), { audience: 'x509_san_dns:evil.example' });
    await expectRefused(verify(presentation), 'key_binding_audience');
  });

  it('key_binding_stale: a KB-JWT older than the maximum age, or from the future', async () => {
    const old = await present(await issuePid(), { iat: nowSeconds() - 301 });
    await expectRefused(verify(old), 'key_binding_stale');
    await expectRefused(verify(old, { maxKeyBindingAgeSeconds: 120 }), 'key_binding_stale');
    const future = await present(await issuePid(), { iat: nowSeconds() + 120 });
    await expectRefused(verify(future), 'key_binding_stale');
  });

  it('sd_hash: a disclosure removed after the KB-JWT was made', async () => {
    const presentation = await present(await issuePid(), {
      disclose: ['given_name', 'age_over_18'],
    });
    const removed = presentation.replace(`${disclosureNamed(presentation, 'given_name')}~`, '');
    await expectRefused(verify(removed), 'sd_hash');
  });

  it("sd_hash: one of the credential's own disclosures added after the KB-JWT was made", async () => {
    const credential = await issuePid();
    const [jwt = '', ...rest] = parts(await present(credential));
    const added = [jwt, disclosureNamed(credential, 'birthdate'), ...rest].join('~');
    await expectRefused(verify(added), 'sd_hash');
  });

  it('expired: exp in the past', async () => {
    await expectRefused(
      verify(await present(await issuePid({ exp: nowSeconds() - 3600 }))),
      'expired',
    );
  });

  it('not_yet_valid: nbf in the future', async () => {
    await expectRefused(
      verify(await present(await issuePid({ nbf: nowSeconds() + 3600 }))),
      'not_yet_valid',
    );
  });

  it("revoked: the credential's bit in the issuer's status list is 1", async () => {
    const credential = await issuePid({ status: { idx: 3, uri: TEST_STATUS_LIST_URI } });
    const statusList = await testStatusList({ issuer, bits: [0, 0, 0, 1, 0, 0, 0, 0] });
    const presentation = await present(credential);
    await expectRefused(
      verify(presentation, { fetchStatusList: () => Promise.resolve(statusList) }),
      'revoked',
    );
  });

  it('status_unavailable: the status list cannot be fetched', async () => {
    const presentation = await present(
      await issuePid({ status: { idx: 3, uri: TEST_STATUS_LIST_URI } }),
    );
    const unreachable = () => Promise.reject(new Error('ECONNREFUSED'));
    await expectRefused(
      verify(presentation, { fetchStatusList: unreachable }),
      'status_unavailable',
    );
  });

  it('status_unavailable: a status list saying VALID signed by an untrusted key', async () => {
    const presentation = await present(
      await issuePid({ status: { idx: 3, uri: TEST_STATUS_LIST_URI } }),
    );
    for (const forged of [
      await testStatusList({ issuer: foreignIssuer, bits: [0, 0, 0, 0] }),
      await testStatusList({
        issuer: { privateKeyJwk: foreignIssuer.privateKeyJwk, x5c: issuer.x5c },
        bits: [0],
      }),
      await testStatusList({ issuer: foreignIssuer, bits: [0, 0, 0, 0], withoutX5c: true }),
    ]) {
      await expectRefused(
        verify(presentation, { fetchStatusList: () => Promise.resolve(forged) }),
        'status_unavailable',
      );
    }
  });

  it("status_unavailable: another list's token (sub is not the credential's uri)", async () => {
    const presentation = await present(
      await issuePid({ status: { idx: 3, uri: TEST_STATUS_LIST_URI } }),
    );
    const otherList = await testStatusList({
      issuer,
      bits: [0, 0, 0, 0],
      uri: 'https://issuer.example/status-lists/2',
    });
    await expectRefused(
      verify(presentation, { fetchStatusList: () => Promise.resolve(otherList) }),
      'status_unavailable',
    );
  });

  it('status_unavailable: the index is outside the list', async () => {
    const presentation = await present(
      await issuePid({ status: { idx: 4096, uri: TEST_STATUS_LIST_URI } }),
    );
    const statusList = await testStatusList({ issuer, bits: [0, 0, 0, 0] });
    await expectRefused(
      verify(presentation, { fetchStatusList: () => Promise.resolve(statusList) }),
      'status_unavailable',
    );
  });
});

describe('verifySdJwtVcPresentation with remembered chains and decoded lists (ADR 0039)', () => {
  const withCaches = () => ({
    chains: new ChainVerificationCache(),
    statusLists: new DecodedStatusLists(),
  });

  it('checks the chain once per presentation and not again for the next, decodes a list once per token', async () => {
    const caches = withCaches();
    const credential = await issuePid({ status: { idx: 3, uri: TEST_STATUS_LIST_URI } });
    const statusList = await testStatusList({ issuer, bits: [0, 0, 0, 0, 0, 0, 0, 0] });
    const fetchStatusList = jest.fn(() => Promise.resolve(statusList));
    for (let i = 0; i < 3; i += 1) {
      await expect(
        verify(await present(credential), { ...caches, fetchStatusList }),
      ).resolves.toMatchObject({ status: 'valid' });
    }
    expect(caches.chains.verifications).toBe(1);
    expect(caches.statusLists.decodings).toBe(1);
    expect(fetchStatusList).toHaveBeenCalledTimes(3); // the token is fetched every time
  });

  it('revoked: the list decoded before says VALID, the one served now says revoked', async () => {
    const caches = withCaches();
    const credential = await issuePid({ status: { idx: 3, uri: TEST_STATUS_LIST_URI } });
    let served = await testStatusList({ issuer, bits: [0, 0, 0, 0, 0, 0, 0, 0] });
    const fetchStatusList = () => Promise.resolve(served);
    await verify(await present(credential), { ...caches, fetchStatusList });
    served = await testStatusList({
      issuer,
      bits: [0, 0, 0, 1, 0, 0, 0, 0],
      exp: nowSeconds() + 60,
    });
    await expectRefused(
      verify(await present(credential), { ...caches, fetchStatusList }),
      'revoked',
    );
  });

  it('status_unavailable: a decoded list whose token has expired since', async () => {
    const caches = withCaches();
    const credential = await issuePid({ status: { idx: 3, uri: TEST_STATUS_LIST_URI } });
    const statusList = await testStatusList({ issuer, bits: [0, 0, 0, 0], exp: nowSeconds() + 60 });
    const fetchStatusList = () => Promise.resolve(statusList);
    await verify(await present(credential), { ...caches, fetchStatusList });
    const later = new Date((nowSeconds() + 600) * 1000);
    await expectRefused(
      verify(await present(credential, { iat: nowSeconds() + 600 }), {
        ...caches,
        fetchStatusList,
        now: later,
      }),
      'status_unavailable',
    );
  });

  it('issuer_untrusted: the same chain once its leaf has expired', async () => {
    const caches = withCaches();
    const credential = await issuePid();
    await verify(await present(credential), caches);
    const notAfter = new X509Certificate(Buffer.from(issuer.x5c[0] ?? '', 'base64')).notAfter;
    const after = new Date(notAfter.getTime() + 1000);
    await expectRefused(
      verify(await present(credential), { ...caches, now: after }),
      'issuer_untrusted',
    );
  });

  it('issuer_untrusted: an untrusted root (same name, other key) with a good chain of another issuer remembered', async () => {
    const caches = withCaches();
    await verify(await present(await issuePid()), caches);
    const rogue = await issueTestSdJwtVc({
      issuer: foreignIssuer,
      holderPublicJwk: holder.publicKey,
      vct: PID_VCT,
      claims: PID_CLAIMS,
      disclosable: PID_DISCLOSABLE,
    });
    await expectRefused(verify(await present(rogue), caches), 'issuer_untrusted');
  });

  it('issuer_untrusted: a tampered chain (one byte of the remembered leaf changed)', async () => {
    const caches = withCaches();
    const credential = await issuePid();
    await verify(await present(credential), caches);
    const [jwt = '', ...rest] = credential.split('~');
    const [header = '', payload = '', signature = ''] = jwt.split('.');
    const decoded = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as {
      x5c: string[];
    };
    const der = Buffer.from(decoded.x5c[0] ?? '', 'base64');
    const at = der.length - 10;
    der.writeUInt8(der.readUInt8(at) ^ 0x01, at);
    decoded.x5c[0] = der.toString('base64');
    const tamperedHeader = Buffer.from(JSON.stringify(decoded)).toString('base64url');
    const tampered = [`${tamperedHeader}.${payload}.${signature}`, ...rest].join('~');
    await expectRefused(verify(await present(tampered), caches), 'issuer_untrusted');
  });

  it('issuer_untrusted: the anchors changed (the issuer CA removed) after its chain was remembered', async () => {
    const caches = withCaches();
    const credential = await issuePid();
    let certificates = anchors.certificates;
    const changing: TrustAnchors = {
      get certificates() {
        return certificates;
      },
    };
    await verify(await present(credential), { ...caches, trustAnchors: changing });
    certificates = [];
    await expectRefused(
      verify(await present(credential), { ...caches, trustAnchors: changing }),
      'issuer_untrusted',
    );
  });
});
