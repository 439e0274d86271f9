import type { webcrypto } from 'node:crypto';
import { verifyCertificateChain, type TrustAnchors } from '@itp/x509';
import type { PresentedDocument } from './read-device-response.js';
import { refuse } from './refuse.js';

export interface DocumentSigner {
  subject: string;
  publicKeyJwk: webcrypto.JsonWebKey;
}

/**
 * The MSO's x5chain (document signer first) leads to one of the trust anchors and is valid at
 * `now` (@itp/x509's rules); its leaf's key is the one the MSO signature must verify with.
 */
export async function checkIssuerChain(
  document: PresentedDocument,
  anchors: TrustAnchors,
  now: Date,
): Promise<DocumentSigner> {
  if (document.x5chain.length === 0) throw refuse('issuer_untrusted', 'the MSO has no x5chain');
  try {
    const { subject, publicKeyJwk } = await verifyCertificateChain(document.x5chain, anchors, now);
    return { subject, publicKeyJwk };
  } catch (error) {
    throw refuse('issuer_untrusted', `document signer chain: ${(error as Error).message}`);
  }
}
