import { z } from 'zod';

/**
 * One of the internal API's tokens (INTERNAL_TOKEN_<CALLER>_TO_<CALLEE>, @itp/crypto's
 * INTERNAL_TOKENS): a deployment secret of at least 32 characters; optional in the schema (the
 * dev stack generates it), required outside development by each app's secrets check.
 */
export const internalTokenSetting = z.string().min(32, 'must be at least 32 characters').optional();

/**
 * INTERNAL_API_TOKEN, the one token every service used to share, is refused with a message that
 * names its replacements: a deployment still setting it has not been given the per-pair tokens.
 */
export const retiredInternalApiTokenSetting = z
  .undefined({
    error:
      'no longer read: each call between services has its own token now (INTERNAL_TOKEN_DID_TO_TOKEN_RPC, INTERNAL_TOKEN_DID_TO_AUTH, INTERNAL_TOKEN_AUTH_TO_DID; docs/operations.md)',
  })
  .optional();

/**
 * INTERNAL_API_ACCEPTED_TOKENS: further bearer tokens a service's internal API accepts besides
 * the token of its one caller, comma separated, each at least 32 characters. They are never
 * sent. This is what makes rotating a token a rolling update (docs/operations.md): first the
 * called service accepts the next token, then the caller sends it, then the previous one is
 * dropped.
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
 * Every token the internal API accepts: its caller's token first, then the accepted extras
 * (duplicates dropped).
 */
export function acceptedInternalApiTokens(
  token: string,
  accepted: readonly string[] | undefined,
): string[] {
  return [...new Set([token, ...(accepted ?? [])])];
}
