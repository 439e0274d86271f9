// Before anything that loads @peculiar/x509 (through @itp/x509, @itp/presentations): jest's ESM
// loader links CommonJS dependencies before any module runs, so @itp/x509's own setup is too late.
import 'reflect-metadata';
import express, { type Router } from 'express';
import { NotFoundError } from '@itp/errors';
import { loadTrustAnchorsFile } from '@itp/x509';
import { authPublicUrl } from '../config.js';
import type { FeatureEdge } from '../feature.js';
import { PollThrottle } from '../rate-limit/poll-throttle.js';
import type { SharedResources } from '../wire-shared.js';
import { KeySealer } from './ephemeral-encryption-key.js';
import { PresentationRequestStore } from './presentation-request-store.js';
import { PresentationRequests } from './presentation-requests.js';
import {
  presentationSiteRouter,
  presentationWalletRouter,
} from './presentation-requests-router.js';
import { presentationVerifiers } from './presentation-verifiers.js';
import { resolveVerifier } from './resolve-verifier.js';

/** `GET /v2/auth/oid4vp/verifier-ca.pem`: the dev PKI's CA (development), else 404. */
function verifierCaRouter(caPem: string | undefined): Router {
  const router = express.Router();
  router.get('/verifier-ca.pem', (_req, res) => {
    if (caPem === undefined) {
      throw new NotFoundError('The verifier CA is served in development only (the dev PKI)');
    }
    res.setHeader('Content-Type', 'application/x-pem-file');
    res.status(200).end(caPem);
  });
  return router;
}

/**
 * Presentation requests (contract §14): sites ask wallets for credentials (DCQL), wallets answer
 * encrypted (`direct_post.jwt`), the presentations are verified against the trusted issuers. Off
 * (404) outside development without VERIFIER_SIGNING_KEY and VERIFIER_CERTIFICATE_CHAIN.
 */
export async function wirePresentationRequests(
  shared: SharedResources,
): Promise<FeatureEdge & { presentationRequests: PresentationRequests | undefined }> {
  const { config, clock, logger } = shared;
  const publicUrl = authPublicUrl(config);
  const resolved = await resolveVerifier(config, new URL(publicUrl).hostname, logger);
  let presentationRequests: PresentationRequests | undefined;
  if (resolved) {
    // TRUSTED_ISSUER_CERTIFICATES and, always, the own SD-JWT issuers' roots (did-service's).
    const trustAnchors = shared.ownIssuers.joinedWith(
      await loadTrustAnchorsFile(
        config.TRUSTED_ISSUER_CERTIFICATES,
        resolved.devCaPem === undefined ? [] : [resolved.devCaPem],
      ),
    );
    presentationRequests = new PresentationRequests(
      {
        store: new PresentationRequestStore(shared.kv),
        marks: shared.oneTimeMarks,
        verifier: resolved.verifier,
        sealer: new KeySealer(String(resolved.verifier.privateJwk.d)),
        verifiers: presentationVerifiers(
          trustAnchors,
          clock,
          () => shared.ownIssuers.refreshIfDue(),
          shared.didService,
        ),
        logger,
      },
      {
        publicUrl,
        resultGraceMs: config.LOGIN_RESULT_GRACE_SECONDS * 1000,
        ...(clock ? { clock } : {}),
      },
    );
  }
  const deps = {
    requests: presentationRequests,
    clientAuthenticator: shared.clientAuthenticator,
    pollThrottle: new PollThrottle(shared.kv, config.LOGIN_POLL_MIN_INTERVAL_MS),
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    logger,
  };
  return {
    presentationRequests,
    routes: [
      { path: '/v2/auth/oid4vp', router: verifierCaRouter(resolved?.devCaPem) },
      { path: '/v2/auth/presentation-requests', router: presentationWalletRouter(deps) },
      { path: '/v2/auth/presentation-requests', router: presentationSiteRouter(deps) },
    ],
  };
}
