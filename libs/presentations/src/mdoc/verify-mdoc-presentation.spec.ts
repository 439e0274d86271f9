// jest links CommonJS packages eagerly: tsyringe (@peculiar/x509, in @itp/x509) needs this first.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import {
  CoseKey,
  DataItem,
  DateOnly,
  DeviceResponse,
  IssuerAuth,
  IssuerSignedItem,
  MobileSecurityObject,
  SignatureAlgorithm,
  ValueDigests,
  base64url,
  cborDecode,
  cborEncode,
  type IssuerSigned,
} from '@owf/mdoc';
import { createCa, issueLeaf, trustAnchorsFrom, type TrustAnchors } from '@itp/x509';
import { PresentationRefusedError } from '../errors.js';
import { issueTestMdoc, presentTestMdoc } from '../testing/mdoc-issuer.js';
import { mdocContext } from './mdoc-context.js';
import { verifyMdocPresentation } from './verify-mdoc-presentation.js';
import type { VerifyMdocOptions } from './mdoc-types.js';

const PID = 'eu.europa.ec.eudi.pid.1';
const MDL = 'org.iso.18013.5.1.mDL';
const MDL_NS = 'org.iso.18013.5.1';
const REQUEST = {
  clientId: 'x509_san_dns:verifier.example',
  nonce: 'nonce-5f1c0a',
  responseUri: 'https://verifier.example/oid4vp/response',
};

interface KeyPair {
  publicJwk: webcrypto.JsonWebKey;
  privateJwk: webcrypto.JsonWebKey;
}

async function deviceKeyPair(): Promise<KeyPair> {
  const { publicKey, privateKey } = await webcrypto.subtle.generateKey(
    { name: 'ECDSA', namedCurve: 'P-256' },
    true,
    ['sign', 'verify'],
  );
  return {
    publicJwk: await webcrypto.subtle.exportKey('jwk', publicKey),
    privateJwk: await webcrypto.subtle.exportKey('jwk', privateKey),
  };
}

let anchors: TrustAnchors;
let issuer: { privateKeyJwk: webcrypto.JsonWebKey; x5c: string[] };
let issuerSubject: string;
let untrustedIssuer: { privateKeyJwk: webcrypto.JsonWebKey; x5c: string[] };
let device: KeyPair;
let otherDevice: KeyPair;
let pid: IssuerSigned;

const pidElements = {
  given_name: 'Erika',
  family_name: 'Mustermann',
  birth_date: new DateOnly('1964-08-12'),
  age_over_18: true,
  nationality: ['DE'],
};

function options(overrides: Partial<VerifyMdocOptions> = {}): VerifyMdocOptions {
  return { ...REQUEST, trustAnchors: anchors, ...overrides };
}

async function presentPid(
  mdoc: IssuerSigned = pid,
  overrides: Partial<Parameters<typeof presentTestMdoc>[1]> = {},
): Promise<string> {
  return presentTestMdoc(mdoc, {
    ...REQUEST,
    devicePrivateJwk: device.privateJwk,
    disclose: { [PID]: ['given_name', 'birth_date', 'age_over_18'] },
    ...overrides,
  });
}

async function refusal(promise: Promise<unknown>): Promise<PresentationRefusedError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PresentationRefusedError);
  return error as PresentationRefusedError;
}

async function expectRule(promise: Promise<unknown>, rule: string): Promise<void> {
  expect((await refusal(promise)).rule).toBe(rule);
}

/** Re-encodes a DeviceResponse after `change` (the holder side's library structures). */
function altered(vpToken: string, change: (response: DeviceResponse) => void): string {
  const response = DeviceResponse.fromEncodedForOid4Vp(vpToken);
  change(response);
  return response.encodedForOid4Vp;
}

/** Re-encodes a DeviceResponse after `change` to its first document's raw deviceSigned map. */
function rawAltered(vpToken: string, change: (deviceSigned: Map<string, unknown>) => void): string {
  const raw = cborDecode(base64url.decode(vpToken)) as Map<string, unknown>;
  const document = (raw.get('documents') as Map<string, unknown>[])[0] as Map<string, unknown>;
  change(document.get('deviceSigned') as Map<string, unknown>);
  return base64url.encode(cborEncode(raw));
}

function replaceItem(response: DeviceResponse, namespace: string, item: IssuerSignedItem): void {
  const { issuerSigned } = response.documents?.[0] as NonNullable<DeviceResponse['documents']>[0];
  const items = issuerSigned.getIssuerNamespace(namespace) ?? [];
  const others = items.filter((each) => each.elementIdentifier !== item.elementIdentifier);
  issuerSigned.issuerNamespaces.setIssuerNamespace(namespace, [...others, item]);
}

beforeAll(async () => {
  const ca = await createCa({ subject: 'CN=Test PID Provider CA,C=DE' });
  const leaf = await issueLeaf(ca, { subject: 'CN=Test PID Provider DS,C=DE' });
  const otherCa = await createCa({ subject: 'CN=Unknown CA,C=DE' });
  const otherLeaf = await issueLeaf(otherCa, { subject: 'CN=Unknown DS,C=DE' });
  anchors = trustAnchorsFrom([ca.pem]);
  issuer = { privateKeyJwk: leaf.privateKeyJwk, x5c: leaf.x5c };
  issuerSubject = leaf.certificate.subject;
  untrustedIssuer = { privateKeyJwk: otherLeaf.privateKeyJwk, x5c: otherLeaf.x5c };
  device = await deviceKeyPair();
  otherDevice = await deviceKeyPair();
  pid = await issueTestMdoc({
    issuer,
    devicePublicJwk: device.publicJwk,
    docType: PID,
    namespaces: { [PID]: pidElements },
  });
});

describe('verifyMdocPresentation: what a wallet discloses', () => {
  it('a PID disclosed partially gives exactly the disclosed elements, dates as ISO strings', async () => {
    const verified = await verifyMdocPresentation(await presentPid(), options());

    expect(verified).toEqual([
      {
        format: 'mso_mdoc',
        docType: PID,
        issuer: issuerSubject,
        claims: { [PID]: { given_name: 'Erika', birth_date: '1964-08-12', age_over_18: true } },
        status: 'valid',
      },
    ]);
  });

  it('an mDL disclosed partially: driving privileges as objects, the portrait as base64url', async () => {
    const portrait = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x01]);
    const mdl = await issueTestMdoc({
      issuer,
      devicePublicJwk: device.publicJwk,
      docType: MDL,
      namespaces: {
        [MDL_NS]: {
          family_name: 'Mustermann',
          given_name: 'Erika',
          birth_date: new DateOnly('1964-08-12'),
          document_number: 'T22000129',
          issuing_country: 'DE',
          portrait,
          driving_privileges: [
            {
              vehicle_category_code: 'B',
              issue_date: new DateOnly('2010-03-01'),
              expiry_date: new DateOnly('2035-03-01'),
            },
          ],
        },
      },
    });
    const vpToken = await presentTestMdoc(mdl, {
      ...REQUEST,
      devicePrivateJwk: device.privateJwk,
      disclose: { [MDL_NS]: ['family_name', 'document_number', 'driving_privileges', 'portrait'] },
    });

    const [verified] = await verifyMdocPresentation(vpToken, options({ expectedDocType: MDL }));

    expect(verified?.docType).toBe(MDL);
    expect(verified?.claims).toEqual({
      [MDL_NS]: {
        family_name: 'Mustermann',
        document_number: 'T22000129',
        portrait: base64url.encode(portrait),
        driving_privileges: [
          { vehicle_category_code: 'B', issue_date: '2010-03-01', expiry_date: '2035-03-01' },
        ],
      },
    });
  });

  it('an encrypted response: the session transcript holds the verifier key thumbprint', async () => {
    const jwkThumbprint = webcrypto.getRandomValues(new Uint8Array(32));
    const vpToken = await presentPid(pid, { jwkThumbprint });

    const [verified] = await verifyMdocPresentation(vpToken, options({ jwkThumbprint }));

    expect(verified?.status).toBe('valid');
  });
});

/**
 * IssuerSignedItemBytes as another issuer's CBOR encoder may write them (valid CBOR, not the
 * shortest form): the 32 random bytes with a two-byte length (0x59 0x00 0x20 instead of
 * 0x58 0x20), whatever the item's values. @owf/mdoc decodes and re-encodes it shorter.
 */
function withLongRandomLength(item: Map<string, unknown>): Uint8Array {
  const entry = (key: string, value: Iterable<number>) => [...cborEncode(key), ...value];
  const random = item.get('random') as Uint8Array;
  return new Uint8Array([
    0xa4,
    ...entry('digestID', cborEncode(item.get('digestID'))),
    ...entry('random', [0x59, random.length >> 8, random.length & 0xff, ...random]),
    ...entry('elementIdentifier', cborEncode(item.get('elementIdentifier'))),
    ...entry('elementValue', cborEncode(item.get('elementValue'))),
  ]);
}

/** The issuer signs an MSO over the digests of those bytes. */
async function reencodedByAnotherIssuer(vpToken: string): Promise<string> {
  const raw = cborDecode(base64url.decode(vpToken)) as Map<string, unknown>;
  const document = (raw.get('documents') as Map<string, unknown>[])[0] as Map<string, unknown>;
  const issuerSigned = document.get('issuerSigned') as Map<string, unknown>;
  const nameSpaces = issuerSigned.get('nameSpaces') as Map<string, DataItem[]>;
  const reordered = (nameSpaces.get(PID) ?? []).map((item) =>
    DataItem.fromBuffer(withLongRandomLength(item.data as Map<string, unknown>)),
  );
  nameSpaces.set(PID, reordered);
  const digests = new Map<number, Uint8Array>();
  for (const item of reordered) {
    const digestId = (item.data as Map<string, unknown>).get('digestID') as number;
    const bytes = cborEncode(item);
    digests.set(digestId, await mdocContext.crypto.digest({ digestAlgorithm: 'SHA-256', bytes }));
  }
  const { validityInfo, deviceKeyInfo } = pid.issuerAuth.mobileSecurityObject;
  const valueDigests = ValueDigests.create({ digests: new Map([[PID, digests]]) });
  const issuerAuth = await IssuerAuth.create(
    {
      payload: MobileSecurityObject.create({
        docType: PID,
        digestAlgorithm: 'SHA-256',
        validityInfo,
        deviceKeyInfo,
        valueDigests,
      }),
      protectedHeaders: pid.issuerAuth.protectedHeaders,
      unprotectedHeaders: pid.issuerAuth.unprotectedHeaders,
      signingKey: CoseKey.fromJwk({ ...issuer.privateKeyJwk, alg: 'ES256' }),
      algorithm: SignatureAlgorithm.ES256,
    },
    mdocContext,
  );
  issuerSigned.set('issuerAuth', issuerAuth.encodedStructure);
  return base64url.encode(cborEncode(raw));
}

describe('verifyMdocPresentation: device-signed elements (ISO 18013-5 DeviceSigned nameSpaces)', () => {
  it('names them apart from the claims, never with their values, and the signature covers them', async () => {
    const token = await presentPid(pid, {
      disclose: { [PID]: ['given_name'] },
      deviceSigned: { [PID]: { age_over_18: true, nationality: ['FR'] } },
    });

    const [verified] = await verifyMdocPresentation(token, options());

    expect(verified?.claims).toEqual({ [PID]: { given_name: 'Erika' } });
    expect(verified?.deviceSignedElements).toEqual({ [PID]: ['age_over_18', 'nationality'] });
    expect(JSON.stringify(verified)).not.toContain('FR');
  });

  it('has none when the device signs no element', async () => {
    const [verified] = await verifyMdocPresentation(await presentPid(), options());
    expect(verified).not.toHaveProperty('deviceSignedElements');
  });

  it("refuses ('device_signature') device-signed elements added after the device signed", async () => {
    const token = await presentPid(pid, { disclose: { [PID]: ['given_name'] } });
    const forged = rawAltered(token, (deviceSigned) => {
      deviceSigned.set(
        'nameSpaces',
        DataItem.fromData(new Map([[PID, new Map([['age_over_18', true]])]])),
      );
    });
    await expectRule(verifyMdocPresentation(forged, options()), 'device_signature');
  });
});

describe('verifyMdocPresentation: over the bytes as received', () => {
  it("verifies items another issuer's CBOR encoder wrote otherwise (no re-encoding)", async () => {
    const token = await reencodedByAnotherIssuer(await presentPid());
    const document = DeviceResponse.fromEncodedForOid4Vp(token).documents?.[0];
    const [reencoded] = document?.issuerSigned.getIssuerNamespace(PID) ?? [];
    // @owf/mdoc's own item check re-encodes, and so refuses what the issuer signed.
    expect(await reencoded?.isValid(PID, document!.issuerSigned.issuerAuth, mdocContext)).toBe(
      false,
    );

    const [verified] = await verifyMdocPresentation(token, options());

    expect(verified?.claims).toEqual({
      [PID]: { given_name: 'Erika', birth_date: '1964-08-12', age_over_18: true },
    });
  });
});

describe("verifyMdocPresentation refuses ('format')", () => {
  it('a vp_token that is not base64url CBOR', async () => {
    await expectRule(verifyMdocPresentation('not*base64url!', options()), 'format');
  });

  it('CBOR that is not a DeviceResponse', async () => {
    const token = base64url.encode(cborEncode(new Map([['hello', 'world']])));
    await expectRule(verifyMdocPresentation(token, options()), 'format');
  });

  it('a DeviceResponse with status other than 0 (OK)', async () => {
    const { documents } = DeviceResponse.fromEncodedForOid4Vp(await presentPid());
    const token = DeviceResponse.createSimple({
      documents: documents ?? [],
      status: 10,
    }).encodedForOid4Vp;
    await expectRule(verifyMdocPresentation(token, options()), 'format');
  });

  it('a DeviceResponse without documents', async () => {
    const token = DeviceResponse.createSimple({ status: 0 }).encodedForOid4Vp;
    await expectRule(verifyMdocPresentation(token, options()), 'format');
  });
});

describe("verifyMdocPresentation refuses ('doctype')", () => {
  it('another docType than the verifier expects', async () => {
    await expectRule(
      verifyMdocPresentation(await presentPid(), options({ expectedDocType: MDL })),
      'doctype',
    );
  });

  it('a document relabelled to another docType than its MSO', async () => {
    const token = altered(await presentPid(), (response) => {
      response.documents?.[0]?.decodedStructure.set('docType', MDL);
    });
    await expectRule(verifyMdocPresentation(token, options()), 'doctype');
  });
});

describe("verifyMdocPresentation refuses ('issuer_untrusted', 'issuer_signature', 'validity')", () => {
  it('a document signer chaining to no trust anchor', async () => {
    const mdoc = await issueTestMdoc({
      issuer: untrustedIssuer,
      devicePublicJwk: device.publicJwk,
      docType: PID,
      namespaces: { [PID]: pidElements },
    });
    await expectRule(verifyMdocPresentation(await presentPid(mdoc), options()), 'issuer_untrusted');
  });

  it('an MSO signed by another key than the trusted document signer certificate', async () => {
    const mdoc = await issueTestMdoc({
      issuer: { privateKeyJwk: untrustedIssuer.privateKeyJwk, x5c: issuer.x5c },
      devicePublicJwk: device.publicJwk,
      docType: PID,
      namespaces: { [PID]: pidElements },
    });
    await expectRule(verifyMdocPresentation(await presentPid(mdoc), options()), 'issuer_signature');
  });

  it('an expired MSO (validUntil before now)', async () => {
    const mdoc = await issueTestMdoc({
      issuer,
      devicePublicJwk: device.publicJwk,
      docType: PID,
      namespaces: { [PID]: pidElements },
      validUntil: new Date(Date.now() - 60_000),
    });
    await expectRule(verifyMdocPresentation(await presentPid(mdoc), options()), 'validity');
  });

  it('an MSO not yet valid (validFrom after now)', async () => {
    const mdoc = await issueTestMdoc({
      issuer,
      devicePublicJwk: device.publicJwk,
      docType: PID,
      namespaces: { [PID]: pidElements },
      validFrom: new Date(Date.now() + 3_600_000),
    });
    await expectRule(verifyMdocPresentation(await presentPid(mdoc), options()), 'validity');
  });
});

describe("verifyMdocPresentation refuses ('digest')", () => {
  it('a disclosed value changed after issuance (same digestID and salt)', async () => {
    const token = altered(await presentPid(), (response) => {
      const original = response.documents?.[0]?.issuerSigned
        .getIssuerNamespace(PID)
        ?.find((item) => item.elementIdentifier === 'birth_date') as IssuerSignedItem;
      replaceItem(
        response,
        PID,
        IssuerSignedItem.fromOptions({
          digestId: original.digestId,
          random: original.random,
          elementIdentifier: 'birth_date',
          elementValue: new DateOnly('2010-01-01'),
        }),
      );
    });
    await expectRule(verifyMdocPresentation(token, options()), 'digest');
  });

  it('an element the issuer never signed', async () => {
    const token = altered(await presentPid(), (response) => {
      replaceItem(
        response,
        PID,
        IssuerSignedItem.fromOptions({
          digestId: 4242,
          random: webcrypto.getRandomValues(new Uint8Array(16)),
          elementIdentifier: 'age_over_21',
          elementValue: true,
        }),
      );
    });
    await expectRule(verifyMdocPresentation(token, options()), 'digest');
  });
});

describe("verifyMdocPresentation refuses ('device_signature')", () => {
  it('a response made for another nonce', async () => {
    const token = await presentPid(pid, { nonce: 'another-nonce' });
    await expectRule(verifyMdocPresentation(token, options()), 'device_signature');
  });

  it('a response made for another verifier (client id)', async () => {
    const token = await presentPid(pid, { clientId: 'x509_san_dns:attacker.example' });
    await expectRule(verifyMdocPresentation(token, options()), 'device_signature');
  });

  it('a response made for another response URI', async () => {
    const token = await presentPid(pid, { responseUri: 'https://attacker.example/response' });
    await expectRule(verifyMdocPresentation(token, options()), 'device_signature');
  });

  it("a response bound to another encryption key's thumbprint, or to none", async () => {
    const mine = webcrypto.getRandomValues(new Uint8Array(32));
    const theirs = webcrypto.getRandomValues(new Uint8Array(32));
    const boundToTheirs = await presentPid(pid, { jwkThumbprint: theirs });
    const unbound = await presentPid();

    await expectRule(
      verifyMdocPresentation(boundToTheirs, options({ jwkThumbprint: mine })),
      'device_signature',
    );
    await expectRule(
      verifyMdocPresentation(unbound, options({ jwkThumbprint: mine })),
      'device_signature',
    );
    await expectRule(verifyMdocPresentation(boundToTheirs, options()), 'device_signature');
  });

  it('a device MAC instead of a signature (OpenID4VP has no reader key to derive it)', async () => {
    const token = rawAltered(await presentPid(), (deviceSigned) => {
      const protectedHs256 = cborEncode(new Map([[1, 5]]));
      const mac = [protectedHs256, new Map(), null, new Uint8Array(32)];
      deviceSigned.set('deviceAuth', new Map([['deviceMac', mac]]));
    });
    const error = await refusal(verifyMdocPresentation(token, options()));
    expect([error.rule, error.message]).toEqual([
      'device_signature',
      expect.stringContaining('MAC'),
    ]);
  });

  it("a device signature carrying its own payload (another session's DeviceAuthentication)", async () => {
    const token = rawAltered(await presentPid(), (deviceSigned) => {
      const deviceAuth = deviceSigned.get('deviceAuth') as Map<string, unknown[]>;
      const signature = deviceAuth.get('deviceSignature') as unknown[];
      signature[2] = cborEncode(['DeviceAuthentication', 'from another session']);
    });
    const error = await refusal(verifyMdocPresentation(token, options()));
    expect([error.rule, error.message]).toEqual([
      'device_signature',
      expect.stringContaining('detached'),
    ]);
  });

  it('a device signature by another key than the MSO binds (a copied mdoc)', async () => {
    const token = await presentPid(pid, { devicePrivateJwk: otherDevice.privateJwk });
    await expectRule(verifyMdocPresentation(token, options()), 'device_signature');
  });
});
