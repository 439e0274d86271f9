import type { ParsedUrlQuery } from 'node:querystring';

/**
 * Longest value of an authorization request's parameter (docs/api.md §9): `state`, `nonce`,
 * `login_hint`, `ui_locales`, `acr_values`, `claims`, `max_age`, … The provider keeps the
 * recognised ones in the Interaction it stores in Redis for the login page, so a caller could
 * otherwise park up to the request's size (URL or form) there per request.
 */
export const MAX_AUTHORIZATION_PARAMETER_CHARS = 512;

/**
 * `id_token_hint` is longer: an id_token this provider signed (with the user's claims), whose
 * signature the provider checks before it stores anything.
 */
export const MAX_ID_TOKEN_HINT_CHARS = 4096;

const limitOf = (name: string): number =>
  name === 'id_token_hint' ? MAX_ID_TOKEN_HINT_CHARS : MAX_AUTHORIZATION_PARAMETER_CHARS;

/**
 * The name of the first parameter whose value (any of its values, when repeated) is longer than
 * its bound, or undefined when every one fits. `params` as node:querystring parses a query or
 * form body (what the provider reads).
 */
export function oversizedAuthorizationParameter(
  params: ParsedUrlQuery | Record<string, unknown>,
): string | undefined {
  for (const [name, value] of Object.entries(params)) {
    const values = Array.isArray(value) ? (value as unknown[]) : [value];
    const limit = limitOf(name);
    if (values.some((v) => typeof v === 'string' && v.length > limit)) return name;
  }
  return undefined;
}

/** The OAuth error description of an oversized parameter (never its value). */
export function oversizedParameterDescription(name: string): string {
  const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
  return `the ${shown} parameter is longer than ${limitOf(name)} characters`;
}
