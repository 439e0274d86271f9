import { SessionTranscript } from '@owf/mdoc';
import { checkDeviceSignature } from './check-device-signature.js';
import { checkDocType } from './check-doc-type.js';
import { checkIssuerChain } from './check-issuer-chain.js';
import { checkIssuerSignature } from './check-issuer-signature.js';
import { checkValidity } from './check-validity.js';
import { deviceSignedElements } from './device-signed-elements.js';
import { disclosedClaims } from './disclosed-claims.js';
import { mdocContext } from './mdoc-context.js';
import type { VerifiedMdoc, VerifyMdocOptions } from './mdoc-types.js';
import { readDeviceResponse, type PresentedDocument } from './read-device-response.js';

async function verifyDocument(
  document: PresentedDocument,
  options: VerifyMdocOptions,
  sessionTranscript: SessionTranscript,
  now: Date,
): Promise<VerifiedMdoc> {
  checkDocType(document, options.expectedDocType);
  const signer = await checkIssuerChain(document, options.trustAnchors, now);
  await checkIssuerSignature(document, signer);
  checkValidity(document.mso.validityInfo, now);
  const claims = await disclosedClaims(document, mdocContext.crypto);
  await checkDeviceSignature(document, sessionTranscript);
  const deviceSigned = deviceSignedElements(document);
  return {
    format: 'mso_mdoc',
    docType: document.docType,
    issuer: signer.subject,
    claims,
    ...(Object.keys(deviceSigned).length === 0 ? {} : { deviceSignedElements: deviceSigned }),
    status: 'valid',
  };
}

/**
 * Verifies an OpenID4VP 1.0 `mso_mdoc` presentation (the vp_token's base64url DeviceResponse):
 * per document the docType, the document signer chain to a trust anchor, the MSO signature, its
 * validity at `now`, every disclosed element's digest and the device signature over the session
 * transcript of this request (OpenID4VPHandover, Appendix B.2.6.1). Refuses with
 * `PresentationRefusedError` naming the rule; returns the disclosed (issuer-signed) claims of
 * each document, and the names only of any device-signed elements (never their values).
 */
export async function verifyMdocPresentation(
  deviceResponse: string,
  options: VerifyMdocOptions,
): Promise<VerifiedMdoc[]> {
  const now = options.now ?? new Date();
  const documents = readDeviceResponse(deviceResponse);
  const { clientId, nonce, responseUri, jwkThumbprint } = options;
  const sessionTranscript = await SessionTranscript.forOid4Vp(
    { clientId, nonce, responseUri, ...(jwkThumbprint ? { jwkThumbprint } : {}) },
    mdocContext,
  );
  const verified: VerifiedMdoc[] = [];
  for (const document of documents)
    verified.push(await verifyDocument(document, options, sessionTranscript, now));
  return verified;
}
