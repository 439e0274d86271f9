import {
  DecodedStatusLists,
  PresentationRefusedError,
  verifyMdocPresentation,
  verifySdJwtVcPresentation,
} from '@itp/presentations';
import { ChainVerificationCache, type TrustAnchors } from '@itp/x509';
import type { DidService } from '../did-service/did-service.js';
import { jwtVcRefusalRule } from './jwt-vc-refusal-rule.js';
import type { PresentationVerifiers } from './verify-vp-token.js';

/**
 * @itp/presentations' verifiers bound to the trusted issuers (contract §14). `refreshTrust`: an
 * SD-JWT VC whose chain is not trusted yet may come from an own issuer whose new CA auth-service
 * has not fetched yet; true when the anchors changed (then it is verified once more).
 * `ownVcs`: this service's own W3C VCs (`jwt_vc_json`), verified by did-service.
 * SD-JWT VCs: accepted x5c chains are remembered (against the anchors of the moment, until a
 * certificate of the path expires) and status lists decoded once per token (ADR 0039).
 */
export function presentationVerifiers(
  trustAnchors: TrustAnchors,
  clock?: () => number,
  refreshTrust?: () => Promise<boolean>,
  ownVcs?: Pick<DidService, 'verifyPresentationVp'>,
): PresentationVerifiers {
  const now = () => (clock ? { now: new Date(clock()) } : {});
  const chains = new ChainVerificationCache();
  const statusLists = new DecodedStatusLists();
  const verifySdJwtVc = (presentation: string, context: { nonce: string; clientId: string }) =>
    verifySdJwtVcPresentation(presentation, {
      nonce: context.nonce,
      audience: context.clientId,
      trustAnchors,
      chains,
      statusLists,
      ...now(),
    });
  return {
    async sdJwtVc(presentation, context) {
      const verified = await verifySdJwtVc(presentation, context).catch(async (err: unknown) => {
        const untrusted =
          err instanceof PresentationRefusedError && err.rule === 'issuer_untrusted';
        if (untrusted && refreshTrust && (await refreshTrust())) {
          return verifySdJwtVc(presentation, context);
        }
        throw err;
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
        ...(document.deviceSignedElements
          ? { deviceSignedElements: document.deviceSignedElements }
          : {}),
      }));
    },
    async jwtVc(vp, context) {
      if (!ownVcs) throw new Error('jwt_vc_json presentations need did-service');
      const verified = await ownVcs.verifyPresentationVp({
        vp,
        nonce: context.nonce,
        clientId: context.clientId,
      });
      if (!verified.verified) {
        throw new PresentationRefusedError(
          jwtVcRefusalRule(verified.error),
          verified.error.message,
        );
      }
      return verified.credentials.map((credential) => ({
        format: 'jwt_vc_json' as const,
        issuer: credential.issuer,
        type: credential.type,
        claims: credential.credentialSubject,
      }));
    },
  };
}
