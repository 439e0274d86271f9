import {
  DataItem,
  DeviceResponse,
  base64url,
  cborDecode,
  type MobileSecurityObject,
} from '@owf/mdoc';
import { refuse } from './refuse.js';

/** A COSE_Sign1 as received: the protected header's exact bytes are what was signed. */
export interface RawSign1 {
  protectedBytes: Uint8Array;
  payload: Uint8Array | null;
  signature: Uint8Array;
}

/** One document of a DeviceResponse, with the byte-exact parts the signatures and digests cover. */
export interface PresentedDocument {
  docType: string;
  mso: MobileSecurityObject;
  /** The document signer certificate first, as DER. */
  x5chain: Uint8Array[];
  issuerAuth: RawSign1;
  /** Namespace → the IssuerSignedItemBytes (tag 24) as received: their digests are in the MSO. */
  issuerItems: Map<string, DataItem[]>;
  /** DeviceNameSpacesBytes (tag 24) as received: part of DeviceAuthentication. */
  deviceNamespaces: DataItem;
  /** Absent when the document has a device MAC instead (or no device authentication). */
  deviceSignature?: RawSign1;
}

function field(value: unknown, key: string): unknown {
  if (!(value instanceof Map)) throw new TypeError(`a map with '${key}' expected`);
  return value.get(key);
}

function rawSign1(value: unknown): RawSign1 {
  if (!Array.isArray(value) || value.length !== 4) throw new TypeError('COSE_Sign1 expected');
  const [protectedBytes, , payload, signature] = value as unknown[];
  if (!(protectedBytes instanceof Uint8Array) || !(signature instanceof Uint8Array))
    throw new TypeError('COSE_Sign1 headers and signature must be byte strings');
  if (payload !== null && !(payload instanceof Uint8Array))
    throw new TypeError('COSE_Sign1 payload must be a byte string or nil');
  return { protectedBytes, payload, signature };
}

function issuerItems(nameSpaces: unknown): Map<string, DataItem[]> {
  const items = new Map<string, DataItem[]>();
  if (nameSpaces === undefined) return items;
  if (!(nameSpaces instanceof Map)) throw new TypeError('issuerSigned.nameSpaces must be a map');
  for (const [namespace, list] of nameSpaces) {
    if (typeof namespace !== 'string' || !Array.isArray(list) || list.length === 0)
      throw new TypeError('issuerSigned.nameSpaces: namespace → non-empty IssuerSignedItemBytes');
    if (!list.every((item) => item instanceof DataItem))
      throw new TypeError('IssuerSignedItemBytes must be tag 24');
    items.set(namespace, list as DataItem[]);
  }
  return items;
}

function rawDocument(raw: unknown): Omit<PresentedDocument, 'mso' | 'x5chain'> {
  const docType = field(raw, 'docType');
  const issuerSigned = field(raw, 'issuerSigned');
  const deviceSigned = field(raw, 'deviceSigned');
  const deviceNamespaces = field(deviceSigned, 'nameSpaces');
  if (typeof docType !== 'string') throw new TypeError('docType must be a string');
  if (!(deviceNamespaces instanceof DataItem)) throw new TypeError('DeviceNameSpacesBytes: tag 24');
  const deviceSignature = field(field(deviceSigned, 'deviceAuth'), 'deviceSignature');
  return {
    docType,
    issuerAuth: rawSign1(field(issuerSigned, 'issuerAuth')),
    issuerItems: issuerItems(field(issuerSigned, 'nameSpaces')),
    deviceNamespaces,
    ...(deviceSignature === undefined ? {} : { deviceSignature: rawSign1(deviceSignature) }),
  };
}

function decode(deviceResponse: string): { parsed: DeviceResponse; raw: unknown } {
  try {
    const bytes = base64url.decode(deviceResponse);
    return { parsed: DeviceResponse.decode(bytes), raw: cborDecode(bytes) };
  } catch {
    throw refuse('format', 'the vp_token is not a base64url CBOR DeviceResponse');
  }
}

/**
 * Decodes the vp_token's DeviceResponse (ISO 18013-5 §8.3.2.1.2.2) and keeps, beside
 * @owf/mdoc's parsed structures, the exact bytes the issuer and device signed: digests and
 * signatures are checked over what was received, never over a re-encoding. Refuses ('format')
 * anything else than a DeviceResponse with status 0 and at least one document.
 */
export function readDeviceResponse(deviceResponse: string): PresentedDocument[] {
  const { parsed, raw } = decode(deviceResponse);
  if (parsed.status !== 0) throw refuse('format', `DeviceResponse status ${parsed.status}, not 0`);
  const documents = parsed.documents ?? [];
  if (documents.length === 0) throw refuse('format', 'the DeviceResponse holds no document');
  try {
    const rawDocuments = field(raw, 'documents') as unknown[];
    return documents.map((document, index) => {
      const { issuerAuth } = document.issuerSigned;
      return {
        ...rawDocument(rawDocuments[index]),
        mso: issuerAuth.mobileSecurityObject,
        x5chain: issuerAuth.certificateChain,
      };
    });
  } catch (error) {
    throw refuse('format', `malformed document: ${(error as Error).message}`);
  }
}
