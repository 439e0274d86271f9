import type { PresentedDocument } from './read-device-response.js';
import { refuse } from './refuse.js';

/**
 * The document's docType is the one the issuer signed in the MSO (a wallet cannot relabel a
 * document) and, when the verifier asked for one, the expected docType.
 */
export function checkDocType(document: PresentedDocument, expectedDocType?: string): void {
  if (document.docType !== document.mso.docType)
    throw refuse('doctype', `document says ${document.docType}, its MSO ${document.mso.docType}`);
  if (expectedDocType !== undefined && document.docType !== expectedDocType)
    throw refuse('doctype', `${document.docType} presented, ${expectedDocType} expected`);
}
