import { z } from 'zod';
import { ID_TOKEN_SIGNING_ALGS } from './client.js';

/** `--id-token-signing-alg`: ES256 (every site's default) or RS256 (OpenID Connect Discovery §3). */
export const idTokenSigningAlgSchema = z.enum(ID_TOKEN_SIGNING_ALGS, {
  message: `must be one of ${ID_TOKEN_SIGNING_ALGS.join(', ')}`,
});

/**
 * A requestId prefix: an absolute http(s) URL whose origin is followed by `/` (so that
 * `http://site.example` cannot be extended to `http://site.example.evil.com`). Everything below
 * the prefix is allowed (docs/api.md §1: "any path below it").
 */
export const requestIdPrefixSchema = z
  .string()
  .max(1024)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        value.startsWith(`${url.origin}/`)
      );
    } catch {
      return false;
    }
  }, 'must be an http(s) URL prefix with a path, e.g. https://site.example/');

export const requestIdPrefixesSchema = z
  .array(requestIdPrefixSchema)
  .min(1, 'needs at least one prefix')
  .max(50);

export const clientIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
    'must be 1-128 characters: letters, digits and . _ - (starting with a letter or digit)',
  );

/**
 * An OpenID Connect redirect URI (or post-logout redirect URI): an absolute http(s) URL without
 * a fragment, matched exactly (docs/api.md §9).
 */
export const redirectUriSchema = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !value.includes('#');
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL without a fragment, e.g. https://site.example/callback');

export const redirectUrisFieldsSchema = z.object({
  redirectUris: z.array(redirectUriSchema).max(20).default([]),
  postLogoutRedirectUris: z.array(redirectUriSchema).max(20).default([]),
  /** OpenID Connect Back-Channel Logout 1.0: where logout tokens are posted (absent: none). */
  backchannelLogoutUri: redirectUriSchema.optional(),
});
export type RedirectUrisFields = z.input<typeof redirectUrisFieldsSchema>;

export const newClientFieldsSchema = z.object({
  id: clientIdSchema,
  name: z.string().trim().min(1).max(200).optional(),
  /** At least 12 characters when chosen by the operator; generated secrets have 256 bits. */
  secret: z.string().min(12, 'must have at least 12 characters').max(1024),
  requestIdPrefixes: requestIdPrefixesSchema,
  ...redirectUrisFieldsSchema.shape,
  idTokenSigningAlg: idTokenSigningAlgSchema.default('ES256'),
});
export type NewClientFields = z.input<typeof newClientFieldsSchema>;
