import { z } from 'zod';
import { compactJwt, didString } from './primitives.js';
import { verificationFailureSchema } from './verification-result.js';

/**
 * did-service's internal API for auth-service's OpenID4VP verifier (bearer
 * INTERNAL_TOKEN_AUTH_TO_DID; never routed by the gateway): the signed request object of an
 * authorization request, and the check of a wallet's `vp_token`.
 */
export const oid4vpRequestObjectRequestSchema = z
  .object({
    /** The authorization request's `state` (auth-service's pending request). */
    state: z.string().min(1).max(512),
    /** The `nonce` the VP must carry. */
    nonce: z.string().min(1).max(512),
    /** Where the wallet posts its answer (`direct_post`): https (http only in development / test). */
    responseUri: z.url({ protocol: /^https?$/ }).max(2048),
    /** Lifetime of the request object (`exp` − `iat`), seconds; default 300. */
    expiresInSeconds: z.number().int().min(1).max(600).optional(),
  })
  .meta({ title: 'Oid4vpRequestObjectRequest' });
export type Oid4vpRequestObjectRequest = z.infer<typeof oid4vpRequestObjectRequestSchema>;

export const oid4vpRequestObjectResultSchema = z
  .object({
    /** `decentralized_identifier:<verifier DID>`: the client id of the request. */
    clientId: z.string().startsWith('decentralized_identifier:did:'),
    /** The request object (JAR, `typ` `oauth-authz-req+jwt`), signed ES256K by the verifier DID. */
    requestObject: compactJwt,
  })
  .meta({ title: 'Oid4vpRequestObjectResult' });
export type Oid4vpRequestObjectResult = z.infer<typeof oid4vpRequestObjectResultSchema>;

export const oid4vpVerifyResponseRequestSchema = z
  .object({
    /** The `vp_token` form value as the wallet posted it (JSON text). */
    vpToken: z.string().min(1).max(200_000),
    /** The nonce of the authorization request the answer is for. */
    nonce: z.string().min(1).max(512),
    /** The client id of that request (`decentralized_identifier:<verifier DID>`). */
    clientId: z.string().min(1).max(512),
  })
  .meta({ title: 'Oid4vpVerifyResponseRequest' });
export type Oid4vpVerifyResponseRequest = z.infer<typeof oid4vpVerifyResponseRequestSchema>;

export const oid4vpVerifyResponseResultSchema = z
  .union([
    z.object({
      verified: z.literal(true),
      /** The user: `credentialSubject.sub` of the credential presented. */
      userId: z.string().min(1),
      /** The VP's holder DID (its JWT `iss`). */
      holder: didString,
      /** As verify-login-vp's: the earliest issuance time of the credentials inside (Unix s). */
      credentialIssuedAt: z.number().int().optional(),
    }),
    verificationFailureSchema,
  ])
  .meta({ title: 'Oid4vpVerifyResponseResult' });
export type Oid4vpVerifyResponseResult = z.infer<typeof oid4vpVerifyResponseResultSchema>;

/**
 * Presentation requests (auth-service, contract §14) with a `jwt_vc_json` credential query: one
 * VP JWT of the wallet's answer, checked for any client id (the site's request is auth-service's
 * `x509_san_dns:` one); the credentials inside are answered for the site's DCQL query.
 */
export const presentationVpVerifyRequestSchema = z
  .object({
    /** The VP JWT, as the vp_token holds it. */
    vp: compactJwt,
    /** The presentation request's nonce. */
    nonce: z.string().min(1).max(512),
    /** The presentation request's client id: the VP's `aud` must be exactly it. */
    clientId: z.string().min(1).max(512),
  })
  .meta({ title: 'PresentationVpVerifyRequest' });
export type PresentationVpVerifyRequest = z.infer<typeof presentationVpVerifyRequestSchema>;

export const presentationVpVerifyResultSchema = z
  .union([
    z.object({
      verified: z.literal(true),
      /** The VP's holder DID (its JWT `iss`). */
      holder: didString,
      /** Each VC inside, verified (issuer DID of this service, not revoked, about the holder). */
      credentials: z
        .array(
          z.object({
            /** The issuer DID. */
            issuer: didString,
            /** The VC's `type`. */
            type: z.array(z.string()),
            /** The VC's `credentialSubject`. */
            credentialSubject: z.record(z.string(), z.unknown()),
          }),
        )
        .min(1),
    }),
    verificationFailureSchema,
  ])
  .meta({ title: 'PresentationVpVerifyResult' });
export type PresentationVpVerifyResult = z.infer<typeof presentationVpVerifyResultSchema>;
