import { z } from 'zod';
import { compactJwt, didString, isoTimestamp } from './primitives.js';
import { jwtProofSchema, verifiableCredentialSchema } from './verifiable-credential.js';

/** The context of W3C Bitstring Status List v1.0 terms, beside the VC data model 1.1 context. */
export const W3C_STATUS_CONTEXT = 'https://www.w3.org/ns/credentials/status/v1';

/** The status list of a VC is served as a JWT with this media type (and as JSON on request). */
export const VC_JWT_MEDIA_TYPE = 'application/vc+jwt';

/**
 * `credentialStatus` of every VC create-vc issues (W3C Bitstring Status List v1.0 §2.1): where
 * the VC's revocation bit is. `id` is `<statusListCredential>#<statusListIndex>`.
 */
export const bitstringStatusListEntrySchema = z
  .looseObject({
    id: z.string().max(2048),
    type: z.literal('BitstringStatusListEntry'),
    statusPurpose: z.string().max(64).meta({ description: 'always "revocation" here' }),
    statusListIndex: z
      .string()
      .regex(/^(0|[1-9][0-9]{0,9})$/, 'must be a non-negative integer in decimal')
      .meta({ description: 'the index of the bit in the list, in decimal' }),
    statusListCredential: z.string().max(2048).meta({
      description: 'URL of the status list credential: <public base>/v2/did/status-lists/<listId>',
    }),
  })
  .meta({ title: 'BitstringStatusListEntry' });
export type BitstringStatusListEntry = z.infer<typeof bitstringStatusListEntrySchema>;

/**
 * GET /v2/did/status-lists/<listId> with `Accept: application/json`: the status list credential
 * (VC data model 1.1, W3C Bitstring Status List v1.0) in the VC JSON shape of create-vc. Without
 * that Accept the same credential comes as its compact JWT (`application/vc+jwt`).
 */
export const statusListCredentialSchema = z
  .looseObject({
    '@context': z.array(z.string().max(512)).min(1).max(16),
    id: z.string().max(2048).meta({ description: 'the list URL' }),
    type: z
      .array(z.string().max(256))
      .refine((types) => types.includes('BitstringStatusListCredential'), {
        message: 'must include BitstringStatusListCredential',
      }),
    issuer: z.looseObject({ id: didString }),
    issuanceDate: isoTimestamp,
    credentialSubject: z.looseObject({
      id: z.string().max(2100).meta({ description: '<list URL>#list' }),
      type: z.literal('BitstringStatusList'),
      statusPurpose: z.string().max(64),
      encodedList: z
        .string()
        .regex(/^u[A-Za-z0-9_-]+$/)
        .meta({
          description:
            '"u" + base64url (no padding) of the GZIP-compressed bitstring; index 0 is the left-most bit, a set bit a revoked VC',
        }),
    }),
    proof: jwtProofSchema,
  })
  .meta({ title: 'BitstringStatusListCredential' });
export type StatusListCredential = z.infer<typeof statusListCredentialSchema>;

/**
 * An SD-JWT as issued (SD-JWT VC, contract §15): the issuer-signed JWT, then `~` and the
 * disclosures (each followed by `~`), possibly a key-binding JWT at the end; the JWT alone too.
 */
export const compactSdJwt = z
  .string()
  .max(65_536)
  .regex(
    /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(~[A-Za-z0-9_.-]*)*$/,
    'must be an SD-JWT (<issuer-signed JWT>~<disclosure>~…)',
  )
  .meta({ description: 'SD-JWT: issuer-signed JWT, then ~-separated disclosures' });

/**
 * POST /v2/did/revoke-vc (Authorization: Bearer <JWT of the user the VC was issued to>): the VC
 * as create-vc answered it, or its compact JWT, or an SD-JWT VC as OpenID4VCI issued it;
 * exactly one of the three.
 */
export const revokeVcRequestSchema = z
  .object({
    vc: verifiableCredentialSchema
      .optional()
      .meta({ description: 'the VC as create-vc answered it (its proof.jwt decides)' }),
    jwt: compactJwt.optional().meta({ description: 'or the VC as a compact JWT' }),
    sdJwt: compactSdJwt.optional().meta({
      description:
        'or an SD-JWT VC (dc+sd-jwt) as issued, with or without its disclosures: its issuer-signed JWT decides',
    }),
  })
  .refine(
    (body) => [body.vc, body.jwt, body.sdJwt].filter((form) => form !== undefined).length === 1,
    { message: 'give exactly one of vc and jwt (or sdJwt for an SD-JWT VC)' },
  )
  .meta({ title: 'RevokeVcRequest' });
export type RevokeVcRequest = z.infer<typeof revokeVcRequestSchema>;

/** The answer of revoke-vc (also when the VC was revoked before). */
export const revokeVcResultSchema = z
  .object({
    revoked: z.literal(true),
    statusListCredential: z.string().meta({
      description:
        'the URL of the VC’s status list (an SD-JWT VC: its status.status_list.uri, a token status list)',
    }),
    statusListIndex: z.string().meta({
      description: 'the VC’s index in it (decimal; an SD-JWT VC: its status.status_list.idx)',
    }),
  })
  .meta({ title: 'RevokeVcResult' });
export type RevokeVcResult = z.infer<typeof revokeVcResultSchema>;
