import { z } from 'zod';

/** One public signing key of GET /v2/auth/.well-known/jwks.json (EC P-256, ES256). */
export const publicSigningJwkSchema = z
  .object({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: z.string(),
    y: z.string(),
    kid: z.string(),
    alg: z.literal('ES256'),
    use: z.literal('sig'),
  })
  .meta({ title: 'PublicSigningJwk' });
export type PublicSigningJwk = z.infer<typeof publicSigningJwkSchema>;

/** The JWKS: the current signing key first, then keys still valid during a rotation overlap. */
export const authJwksSchema = z
  .object({ keys: z.array(publicSigningJwkSchema) })
  .meta({ title: 'AuthJwks' });
export type AuthJwks = z.infer<typeof authJwksSchema>;
