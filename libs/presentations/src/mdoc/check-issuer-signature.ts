import { verifyCoseSign1Es256 } from './cose-sign1.js';
import type { DocumentSigner } from './check-issuer-chain.js';
import type { PresentedDocument } from './read-device-response.js';
import { refuse } from './refuse.js';

/** The MSO (issuerAuth's payload) is signed, ES256, by the document signer certificate's key. */
export async function checkIssuerSignature(
  document: PresentedDocument,
  signer: DocumentSigner,
): Promise<void> {
  const { payload } = document.issuerAuth;
  if (payload === null) throw refuse('issuer_signature', 'issuerAuth carries no MSO');
  if (!(await verifyCoseSign1Es256(document.issuerAuth, payload, signer.publicKeyJwk)))
    throw refuse('issuer_signature', 'the MSO signature does not verify with the document signer');
}
