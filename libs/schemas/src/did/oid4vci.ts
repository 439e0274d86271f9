import { z } from 'zod';
import { userInfoSchema } from './user-info.js';

/**
 * OpenID4VCI 1.0, pre-authorized code flow (contract §10, docs/api.md §10): what the logged-in
 * user asks for with `POST /v2/did/credential-offer`, and what it answers. The protocol endpoints
 * under `/v2/did/oid4vci` speak OpenID4VCI / OAuth 2.0 (their bodies are the specifications').
 */

/** Digits of a transaction code (tx_code): short enough to type, one-time, with few attempts. */
export const OID4VCI_TX_CODE_LENGTH = 6;

/** The credential formats an offer may name (OpenID4VCI 1.0 Appendix A). */
export const OID4VCI_CREDENTIAL_FORMATS = ['jwt_vc_json', 'dc+sd-jwt'] as const;
export type Oid4vciCredentialFormat = (typeof OID4VCI_CREDENTIAL_FORMATS)[number];

/**
 * Claims an SD-JWT VC sets itself (SD-JWT VC draft §3.2.2, SD-JWT §4): a `dc+sd-jwt` offer's
 * userInfo may not name them (besides create-vc's reserved keys).
 */
export const SD_JWT_VC_RESERVED_CLAIMS = ['vct', 'cnf', 'status', '_sd', '_sd_alg'] as const;

export const credentialOfferRequestSchema = z
  .object({
    txCode: z.boolean().default(true).meta({
      description:
        'true (the default): the code is redeemed only with a numeric transaction code, answered here (never in the offer); false: whoever scans the offer first redeems it',
    }),
    userInfo: userInfoSchema.default({}).meta({
      description:
        'profile claims of the credential (as create-vc’s userInfo); `id` and `sub` are the service’s',
    }),
    format: z.enum(OID4VCI_CREDENTIAL_FORMATS).default('jwt_vc_json').meta({
      description:
        'jwt_vc_json (the default): a W3C Profile VC (configuration itp_profile_jwt_vc_json); dc+sd-jwt: an SD-JWT VC (configuration itp_profile_sd_jwt, each profile claim selectively disclosable)',
    }),
  })
  .superRefine((request, ctx) => {
    if (request.format !== 'dc+sd-jwt') return;
    for (const key of Object.keys(request.userInfo)) {
      if ((SD_JWT_VC_RESERVED_CLAIMS as readonly string[]).includes(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['userInfo', key],
          message: `is reserved in an SD-JWT VC (reserved: ${SD_JWT_VC_RESERVED_CLAIMS.join(', ')})`,
        });
      }
    }
  })
  .meta({ title: 'CredentialOfferRequest' });
export type CredentialOfferRequest = z.infer<typeof credentialOfferRequestSchema>;

export const credentialOfferResultSchema = z
  .object({
    credentialOfferUri: z
      .string()
      .startsWith('openid-credential-offer://?credential_offer_uri=')
      .meta({
        description:
          'openid-credential-offer://?credential_offer_uri=<url-encoded <PUBLIC_URL>/v2/did/oid4vci/offer/<id>>: show it as a QR code',
      }),
    txCode: z
      .string()
      .regex(/^[0-9]+$/)
      .optional()
      .meta({
        description: 'the transaction code the user types into the wallet (when asked for)',
      }),
    expiresInSeconds: z.number().int().meta({ description: 'the offer and its code expire then' }),
  })
  .meta({ title: 'CredentialOfferResult' });
export type CredentialOfferResult = z.infer<typeof credentialOfferResultSchema>;
