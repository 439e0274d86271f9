import { z } from 'zod';

/** Why a VC or VP did not verify (`error.code` of a failed verification result). */
export const VERIFICATION_FAILURE_CODES = [
  'invalid_jwt',
  'invalid_signature',
  'expired',
  'not_yet_valid',
  'resolver_error',
  'json_mismatch',
  'foreign_issuer',
  'wrong_audience',
  'subject_mismatch',
  'invalid_credential',
  'stale',
  'missing_id',
  'no_credentials',
  'user_mismatch',
  'revoked',
  'status_unavailable',
  'invalid_vp_token',
  'wrong_nonce',
  'dcql_unsatisfied',
] as const;
export type VerificationFailureCode = (typeof VERIFICATION_FAILURE_CODES)[number];

/** A successful verify-vc / verify-vp answer (docs/api.md §3.4); HTTP 200. */
export const verificationSuccessSchema = z
  .looseObject({
    verified: z.literal(true),
    payload: z.record(z.string(), z.unknown()),
    didResolutionResult: z.looseObject({
      didDocumentMetadata: z.record(z.string(), z.unknown()),
      didResolutionMetadata: z.record(z.string(), z.unknown()),
      didDocument: z.record(z.string(), z.unknown()).nullable(),
    }),
    issuer: z.string(),
    signer: z.record(z.string(), z.unknown()),
    jwt: z.string(),
    policies: z.record(z.string(), z.unknown()),
    verifiableCredential: z.record(z.string(), z.unknown()).optional(),
    verifiablePresentation: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ title: 'VerificationSuccess' });

/** A failed verification (bad signature, foreign issuer, expiry, edited JSON, …); still HTTP 200. */
export const verificationFailureSchema = z
  .object({
    verified: z.literal(false),
    error: z.object({
      code: z.enum(VERIFICATION_FAILURE_CODES),
      message: z.string(),
    }),
  })
  .meta({ title: 'VerificationFailure' });
export type VerificationFailure = z.infer<typeof verificationFailureSchema>;

export const verificationResultSchema = z
  .union([verificationSuccessSchema, verificationFailureSchema])
  .meta({ title: 'VerificationResult' });
