import { z } from 'zod';
import { compactJwt, didEthrString, didString, isoTimestamp } from './primitives.js';
import { userInfoSchema } from './user-info.js';

/** The only proof format the service issues and verifies: a JWT (did-jwt-vc). */
export const JWT_PROOF_TYPE = 'JwtProof2020';

export const W3C_CREDENTIALS_CONTEXT = 'https://www.w3.org/2018/credentials/v1';

export const jwtProofSchema = z
  .looseObject({
    type: z.literal(JWT_PROOF_TYPE),
    jwt: compactJwt,
  })
  .meta({ title: 'JwtProof' });

const typeList = (required: string) =>
  z
    .array(z.string().max(256))
    .min(1)
    .max(16)
    .refine((types) => types.includes(required), { message: `must include ${required}` });

/**
 * A verifiable credential with a JWT proof (docs/api.md §3.2). Members beyond the listed ones are
 * allowed (e.g. expirationDate, id); verification compares the whole JSON with the JWT.
 */
export const verifiableCredentialSchema = z
  .looseObject({
    '@context': z.array(z.string().max(512)).min(1).max(16),
    type: typeList('VerifiableCredential'),
    issuer: z.union([didString, z.looseObject({ id: didString })]),
    issuanceDate: isoTimestamp,
    credentialSubject: z.looseObject({
      id: didString.optional(),
      sub: z.string().max(256).optional(),
    }),
    proof: jwtProofSchema,
  })
  .meta({ title: 'VerifiableCredential' });
export type VerifiableCredentialBody = z.infer<typeof verifiableCredentialSchema>;

/** POST /v2/did/create-vc (Authorization: Bearer <JWT of the user>) */
export const createVcRequestSchema = z
  .object({
    holder: didEthrString.meta({ description: 'the DID create-did made for the caller' }),
    issuer: didString.meta({ description: 'an issuer DID of the service (GET /v2/did/issuers)' }),
    userInfo: userInfoSchema.default({}),
  })
  .meta({ title: 'CreateVcRequest' });
export type CreateVcRequest = z.infer<typeof createVcRequestSchema>;
