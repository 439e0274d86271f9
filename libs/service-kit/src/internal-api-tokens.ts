import { z } from 'zod';

/**
 * INTERNAL_API_ACCEPTED_TOKENS: further bearer tokens the internal API accepts besides
 * INTERNAL_API_TOKEN, comma separated, each at least 32 characters. They are never sent: a
 * service's client always sends INTERNAL_API_TOKEN. This is what makes rotating the shared token
 * a rolling update (docs/operations.md): first every service accepts the next token, then every
 * service sends it (accepting the previous one), then the previous one is dropped.
 */
export const internalApiAcceptedTokensSetting = z
  .string()
  .transform((value, ctx) => {
    const tokens = value
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t.length > 0);
    if (tokens.some((t) => t.length < 32)) {
      ctx.addIssue({
        code: 'custom',
        message: 'expected a comma list of tokens of at least 32 characters each',
      });
      return z.NEVER;
    }
    return [...new Set(tokens)];
  })
  .optional();

/**
 * Every token the internal API accepts: the one this service sends first, then the accepted
 * extras (duplicates dropped).
 */
export function acceptedInternalApiTokens(
  token: string,
  accepted: readonly string[] | undefined,
): string[] {
  return [...new Set([token, ...(accepted ?? [])])];
}
