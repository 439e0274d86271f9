import type { PresentedDocument } from './read-device-response.js';
import { refuse } from './refuse.js';

/**
 * The element identifiers of the document's DeviceSigned nameSpaces (ISO 18013-5 §8.3.2.1.2.2),
 * by namespace: elements the holder's device asserts and signs itself, which no issuer attests
 * (the MSO holds no digest of them). Their values are never read: only the names are returned,
 * so that a verifier can tell that a requested element came device-signed only (refused: HAIP
 * and this service take issuer-signed elements only; docs/security.md §14).
 */
export function deviceSignedElements(document: PresentedDocument): Record<string, string[]> {
  const data: unknown = document.deviceNamespaces.data;
  if (!(data instanceof Map)) throw refuse('format', 'DeviceNameSpaces must be a map');
  const names: Record<string, string[]> = {};
  for (const [namespace, items] of data as Map<unknown, unknown>) {
    if (typeof namespace !== 'string' || !(items instanceof Map))
      throw refuse('format', 'DeviceNameSpaces: namespace → DeviceSignedItems expected');
    const elements = [...(items as Map<unknown, unknown>).keys()];
    if (!elements.every((element): element is string => typeof element === 'string'))
      throw refuse('format', `DeviceNameSpaces ${namespace}: element identifiers must be strings`);
    if (elements.length > 0) names[namespace] = elements;
  }
  return names;
}
