import { z } from 'zod';

/** Presentation requests (docs/api.md §14): how long one stays open, seconds; its body limit. */
export const PRESENTATION_REQUEST_LIMITS = {
  defaultWaitSeconds: 300,
  maxWaitSeconds: 600,
  purposeLength: 500,
  requestIdLength: 128,
} as const;

const L = PRESENTATION_REQUEST_LIMITS;

/** POST /v2/auth/presentation-requests (the site's HTTP Basic client credentials). */
export const presentationRequestCreateSchema = z
  .object({
    dcql_query: z.record(z.string(), z.unknown()).meta({
      description:
        'a DCQL query (OpenID4VP 1.0 §6): at most 10 credentials, each dc+sd-jwt (meta.vct_values), mso_mdoc (meta.doctype_value) or jwt_vc_json (meta.type_values, claim paths ["credentialSubject", …])',
    }),
    purpose: z
      .string()
      .trim()
      .min(1)
      .max(L.purposeLength)
      .optional()
      .meta({ description: 'why the site asks (kept with the request; not sent to the wallet)' }),
    waitTime: z
      .number()
      .int()
      .min(1)
      .max(L.maxWaitSeconds)
      .default(L.defaultWaitSeconds)
      .meta({ description: 'seconds the request stays open (1..600, default 300)' }),
  })
  .strict()
  .meta({ title: 'PresentationRequestCreate' });
export type PresentationRequestCreate = z.input<typeof presentationRequestCreateSchema>;

export const presentationRequestCreatedSchema = z
  .object({
    requestId: z
      .string()
      .meta({ description: 'the request (256 random bits, base64url): poll result with it' }),
    openid4vpUri: z.string().startsWith('openid4vp://?').meta({
      description:
        'openid4vp://?client_id=x509_san_dns:<host>&request_uri=…: show it as a QR code or a link',
    }),
    expiresInSeconds: z.number().int().meta({ description: 'seconds the request stays open' }),
  })
  .meta({ title: 'PresentationRequestCreated' });
export type PresentationRequestCreated = z.infer<typeof presentationRequestCreatedSchema>;

/** POST /v2/auth/presentation-requests/result (the same site). */
export const presentationRequestResultRequestSchema = z
  .object({ requestId: z.string().min(1).max(L.requestIdLength) })
  .strict()
  .meta({ title: 'PresentationRequestResultRequest' });
export type PresentationRequestResultRequest = z.infer<
  typeof presentationRequestResultRequestSchema
>;

/** One verified credential: only the claims the query asked for (all presented when it named none). */
export const presentedCredentialSchema = z
  .object({
    format: z.enum(['dc+sd-jwt', 'mso_mdoc', 'jwt_vc_json']),
    issuer: z.string().meta({
      description:
        "dc+sd-jwt: the credential's iss; mso_mdoc: the document signer's subject; jwt_vc_json: the issuer DID",
    }),
    claims: z.record(z.string(), z.unknown()).meta({
      description:
        'dc+sd-jwt: the disclosed claims; mso_mdoc: { namespace: { element: value } } (issuer-signed only); jwt_vc_json: the credentialSubject claims',
    }),
    status: z.literal('valid'),
  })
  .meta({ title: 'PresentedCredential' });
export type PresentedCredential = z.infer<typeof presentedCredentialSchema>;

/** The outcome, handed out once (docs/api.md §14). */
export const presentationOutcomeSchema = z
  .discriminatedUnion('status', [
    z.object({
      status: z.literal('verified'),
      credentials: z
        .record(z.string(), z.array(presentedCredentialSchema))
        .meta({ description: 'by DCQL credential query id' }),
    }),
    z.object({
      status: z.literal('declined'),
      error: z.string().meta({ description: "the wallet's error response (e.g. access_denied)" }),
    }),
    z.object({
      status: z.literal('refused'),
      error: z.literal('access_denied'),
      rule: z.string().meta({
        description:
          'the check that failed (issuer_untrusted, key_binding_nonce, revoked, device_signed, …: docs/api.md §14)',
      }),
    }),
  ])
  .meta({ title: 'PresentationOutcome' });
export type PresentationOutcome = z.infer<typeof presentationOutcomeSchema>;
