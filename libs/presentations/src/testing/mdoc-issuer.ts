import type { webcrypto } from 'node:crypto';
import {
  CoseKey,
  DeviceKey,
  DeviceNamespaces,
  DeviceRequest,
  DeviceSignedItems,
  DocRequest,
  Holder,
  Issuer,
  ItemsRequest,
  SessionTranscript,
  SignatureAlgorithm,
  type IssuerSigned,
} from '@owf/mdoc';
import { mdocContext } from '../mdoc/mdoc-context.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface TestMdocIssuer {
  privateKeyJwk: webcrypto.JsonWebKey;
  /** The document signer certificate first (base64 DER, as in a JWS x5c). */
  x5c: readonly string[];
}

export interface IssueTestMdocOptions {
  issuer: TestMdocIssuer;
  devicePublicJwk: webcrypto.JsonWebKey;
  docType: string;
  namespaces: Record<string, Record<string, unknown>>;
  validFrom?: Date;
  validUntil?: Date;
}

/** The EC members of a JWK, with ES256 named as @owf/mdoc's COSE keys want it. */
function es256CoseKey(jwk: webcrypto.JsonWebKey): CoseKey {
  const { kty, crv, x, y, d } = jwk;
  return CoseKey.fromJwk({ kty, crv, x, y, ...(d === undefined ? {} : { d }), alg: 'ES256' });
}

/**
 * Issues an mdoc (ISO 18013-5 IssuerSigned) the way an issuer does, with @owf/mdoc's Issuer:
 * every element's digest in an MSO signed ES256 by `issuer`, bound to the device key. Valid
 * from a minute ago for a year unless `validFrom`/`validUntil` say otherwise.
 */
export async function issueTestMdoc(options: IssueTestMdocOptions): Promise<IssuerSigned> {
  const validUntil = options.validUntil ?? new Date(Date.now() + 365 * DAY_MS);
  const validFrom =
    options.validFrom ?? new Date(Math.min(Date.now() - 60_000, validUntil.getTime() - DAY_MS));
  const issuer = new Issuer(options.docType, mdocContext);
  for (const [namespace, elements] of Object.entries(options.namespaces))
    issuer.addIssuerNamespace(namespace, elements);
  return issuer.sign({
    signingKey: es256CoseKey(options.issuer.privateKeyJwk),
    algorithm: SignatureAlgorithm.ES256,
    digestAlgorithm: 'SHA-256',
    validityInfo: { signed: validFrom, validFrom, validUntil },
    deviceKeyInfo: { deviceKey: DeviceKey.fromJwk(es256CoseKey(options.devicePublicJwk).jwk) },
    certificates: options.issuer.x5c.map((der) => new Uint8Array(Buffer.from(der, 'base64'))),
  });
}

export interface PresentTestMdocOptions {
  devicePrivateJwk: webcrypto.JsonWebKey;
  /** Namespace → the elements to disclose. */
  disclose: Record<string, string[]>;
  clientId: string;
  nonce: string;
  responseUri: string;
  jwkThumbprint?: Uint8Array;
  /** Elements the device asserts itself (DeviceSigned nameSpaces): namespace → element → value. */
  deviceSigned?: Record<string, Record<string, unknown>>;
}

function deviceNamespaces(elements: Record<string, Record<string, unknown>>): DeviceNamespaces {
  return DeviceNamespaces.create({
    deviceNamespaces: new Map(
      Object.entries(elements).map(([namespace, items]) => [
        namespace,
        DeviceSignedItems.create({ deviceSignedItems: new Map(Object.entries(items)) }),
      ]),
    ),
  });
}

/**
 * Presents an mdoc the way a wallet does over OpenID4VP 1.0, with @owf/mdoc's Holder: only the
 * `disclose`d elements (and any `deviceSigned` ones), the device signature over the
 * OpenID4VPHandover session transcript.
 * Returns the DeviceResponse as the vp_token carries it (base64url).
 */
export async function presentTestMdoc(
  mdoc: IssuerSigned,
  options: PresentTestMdocOptions,
): Promise<string> {
  const { clientId, nonce, responseUri, jwkThumbprint } = options;
  const sessionTranscript = await SessionTranscript.forOid4Vp(
    { clientId, nonce, responseUri, ...(jwkThumbprint ? { jwkThumbprint } : {}) },
    mdocContext,
  );
  const namespaces = Object.fromEntries(
    Object.entries(options.disclose).map(([namespace, elements]) => [
      namespace,
      Object.fromEntries(elements.map((element) => [element, false])),
    ]),
  );
  const docType = mdoc.issuerAuth.mobileSecurityObject.docType;
  const deviceRequest = DeviceRequest.create({
    docRequests: [
      DocRequest.create({ itemsRequest: ItemsRequest.create({ docType, namespaces }) }),
    ],
  });
  const response = await Holder.createDeviceResponseForDeviceRequest(
    {
      deviceRequest,
      sessionTranscript,
      issuerSigned: [mdoc],
      ...(options.deviceSigned ? { deviceNamespaces: deviceNamespaces(options.deviceSigned) } : {}),
      signature: { signingKey: es256CoseKey(options.devicePrivateJwk) },
    },
    mdocContext,
  );
  return response.encodedForOid4Vp;
}
