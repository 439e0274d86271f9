import express, { type Router } from 'express';
import type { AuthJwks } from '@itp/schemas';

/** `GET /.well-known/jwks.json` (docs/api.md §2): the public keys of this service's tokens. */
export function jwksRouter(jwks: AuthJwks, maxAgeSeconds: number): Router {
  const router = express.Router();
  router.get('/.well-known/jwks.json', (_req, res) => {
    res.setHeader('Cache-Control', `public, max-age=${maxAgeSeconds}`);
    res.json(jwks);
  });
  return router;
}
