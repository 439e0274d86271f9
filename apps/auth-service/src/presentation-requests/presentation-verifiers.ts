import { verifyMdocPresentation, verifySdJwtVcPresentation } from '@itp/presentations';
import type { TrustAnchors } from '@itp/x509';
import type { PresentationVerifiers } from './verify-vp-token.js';

/** @itp/presentations' verifiers bound to the trusted issuers (contract §14). */
export function presentationVerifiers(
  trustAnchors: TrustAnchors,
  clock?: () => number,
): PresentationVerifiers {
  const now = () => (clock ? { now: new Date(clock()) } : {});
  return {
    async sdJwtVc(presentation, context) {
      const verified = await verifySdJwtVcPresentation(presentation, {
        nonce: context.nonce,
        audience: context.clientId,
        trustAnchors,
        ...now(),
      });
      return {
        format: 'dc+sd-jwt',
        issuer: verified.issuer,
        type: verified.vct,
        claims: verified.claims,
      };
    },
    async mdoc(deviceResponse, context) {
      const documents = await verifyMdocPresentation(deviceResponse, {
        clientId: context.clientId,
        nonce: context.nonce,
        responseUri: context.responseUri,
        jwkThumbprint: context.jwkThumbprint,
        trustAnchors,
        ...now(),
      });
      return documents.map((document) => ({
        format: 'mso_mdoc' as const,
        issuer: document.issuer,
        type: document.docType,
        claims: document.claims,
      }));
    },
  };
}
