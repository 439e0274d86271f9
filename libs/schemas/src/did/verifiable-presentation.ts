import { z } from 'zod';
import { didEthrString, didString, isoTimestamp } from './primitives.js';
import { jwtProofSchema, verifiableCredentialSchema } from './verifiable-credential.js';

/** Most credentials one presentation may carry. */
export const MAX_PRESENTED_CREDENTIALS = 20;

/** A verifiable presentation with a JWT proof (docs/api.md §3.3). */
export const verifiablePresentationSchema = z
  .looseObject({
    '@context': z.array(z.string().max(512)).min(1).max(16),
    type: z
      .array(z.string().max(256))
      .min(1)
      .max(16)
      .refine((types) => types.includes('VerifiablePresentation'), {
        message: 'must include VerifiablePresentation',
      }),
    holder: didString,
    verifier: z.array(didString).max(16).optional(),
    issuanceDate: isoTimestamp.optional(),
    verifiableCredential: z
      .array(verifiableCredentialSchema)
      .max(MAX_PRESENTED_CREDENTIALS)
      .optional(),
    proof: jwtProofSchema,
  })
  .meta({ title: 'VerifiablePresentation' });
export type VerifiablePresentationBody = z.infer<typeof verifiablePresentationSchema>;

/** POST /v2/did/create-vp (Authorization: Bearer <JWT of the user the holder DID is bound to>) */
export const createVpRequestSchema = z
  .object({
    holder: didEthrString,
    verifier: didString.meta({
      description: 'a verifier DID of the service (GET /v2/did/verifiers)',
    }),
    credentials: z.array(verifiableCredentialSchema).min(1).max(MAX_PRESENTED_CREDENTIALS),
  })
  .meta({ title: 'CreateVpRequest' });
export type CreateVpRequest = z.infer<typeof createVpRequestSchema>;
