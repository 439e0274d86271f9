import { z } from 'zod';

/**
 * A wallet's error response to a response URI (OpenID4VP 1.0 §8.5, RFC 6749 §4.1.2.1): `error`
 * (e.g. access_denied: the user declined), the request's `state`, optionally `error_description`
 * / `error_uri`. The OpenID4VP login and the presentation requests take it alike.
 */
export const walletErrorResponseSchema = z.object({
  error: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/),
  state: z.string().min(1).max(512),
  error_description: z.string().max(2048).optional(),
  error_uri: z.string().max(2048).optional(),
});
