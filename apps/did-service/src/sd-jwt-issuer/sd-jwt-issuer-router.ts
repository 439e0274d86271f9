import { Router } from 'express';
import { didWebDocument } from './did-web-document.js';
import { IssuerCaNotServedError, NoIssuerDidError } from './sd-jwt-issuer-errors.js';
import type { PublishedSdJwtIssuerKeys } from './stored-sd-jwt-issuer-keys.js';

/** How long wallets and verifiers may cache the did:web document (a key change shows within it). */
const DID_DOCUMENT_MAX_AGE_SECONDS = 60;

/**
 * The SD-JWT VC issuer's public documents (docs/api.md §15), on the public port:
 * - `GET /.well-known/did.json`: its did:web document (routed by the gateway); 404 while issuance
 *   is off;
 * - `GET /v2/did/oid4vci/issuer-ca.pem`: the dev CA while the dev PKI's issuer leaf signs
 *   (development, nothing imported), for test wallets to trust; 404 otherwise.
 * Mount it before OpenID4VCI's routers (they answer everything under /v2/did/oid4vci).
 */
export function sdJwtIssuerRouter(keys: PublishedSdJwtIssuerKeys | undefined): Router {
  const router = Router();

  /** 200 the did:web document | 404 issuance off. */
  router.get('/.well-known/did.json', async (_req, res) => {
    if (!keys) throw new NoIssuerDidError();
    const published = await keys.published();
    const did = published[0]?.did ?? '';
    res
      .set('cache-control', `public, max-age=${DID_DOCUMENT_MAX_AGE_SECONDS}`)
      .type('application/did+json')
      .send(JSON.stringify(didWebDocument(did, published)));
  });

  /** 200 the dev CA (PEM) | 404 an operator-imported key, or not development. */
  router.get('/v2/did/oid4vci/issuer-ca.pem', async (_req, res) => {
    const pem = await keys?.devCaPem();
    if (!pem) throw new IssuerCaNotServedError();
    res.set('cache-control', 'no-cache').type('application/x-pem-file').send(pem);
  });

  return router;
}
