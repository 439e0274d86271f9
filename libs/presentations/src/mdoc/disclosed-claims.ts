import { cborEncode, compareBytes, type DataItem, type MdocContext } from '@owf/mdoc';
import { claimValue } from './claim-value.js';
import type { PresentedDocument } from './read-device-response.js';
import { refuse } from './refuse.js';

interface IssuerSignedItem {
  digestId: number;
  elementIdentifier: string;
  elementValue: unknown;
}

function issuerSignedItem(item: DataItem, namespace: string): IssuerSignedItem {
  const data: unknown = item.data;
  const digestId = data instanceof Map ? data.get('digestID') : undefined;
  const elementIdentifier = data instanceof Map ? data.get('elementIdentifier') : undefined;
  if (typeof digestId !== 'number' || typeof elementIdentifier !== 'string')
    throw refuse('format', `${namespace}: an IssuerSignedItem without digestID/elementIdentifier`);
  return {
    digestId,
    elementIdentifier,
    elementValue: (data as Map<string, unknown>).get('elementValue'),
  };
}

/**
 * Every disclosed element's IssuerSignedItemBytes, as received, hashes to the digest the MSO
 * holds for its namespace and digestID (ISO 18013-5 §9.3.1): a changed value, an element the
 * issuer never signed or one moved to another namespace is refused ('digest'). Returns the
 * disclosed elements only, by namespace.
 */
export async function disclosedClaims(
  document: PresentedDocument,
  crypto: MdocContext['crypto'],
): Promise<Record<string, Record<string, unknown>>> {
  const { digestAlgorithm, valueDigests } = document.mso;
  const claims: Record<string, Record<string, unknown>> = {};
  for (const [namespace, items] of document.issuerItems) {
    const elements: Record<string, unknown> = {};
    for (const item of items) {
      const { digestId, elementIdentifier, elementValue } = issuerSignedItem(item, namespace);
      const expected = valueDigests.getDigestForNamespace(namespace, digestId);
      const digest = await crypto.digest({ digestAlgorithm, bytes: cborEncode(item) });
      if (expected === undefined || !compareBytes(digest, expected))
        throw refuse(
          'digest',
          `${namespace}/${elementIdentifier} is not the value the issuer signed`,
        );
      elements[elementIdentifier] = claimValue(elementValue);
    }
    claims[namespace] = elements;
  }
  return claims;
}
