import { z } from 'zod';
import { plainText } from './plain-text.js';

/** Longest id / password / token the service reads (longer input is a 400, never hashed). */
export const AUTH_LIMITS = {
  idLength: 256,
  passwordLength: 1024,
  tokenLength: 8192,
  requestIdLength: 2048,
} as const;

/**
 * POST /v2/auth/auth-user. Unknown members are ignored (stripped), so `userType` and any other
 * extra member never fail a login. `token`: the JWT to extend (docs/api.md §2; may also come as
 * `Authorization: Bearer`).
 */
export const authUserRequestSchema = z
  .object({
    id: plainText(AUTH_LIMITS.idLength).meta({ description: 'user id (no control characters)' }),
    password: z
      .string()
      .min(1)
      .max(AUTH_LIMITS.passwordLength)
      .meta({ description: 'the user password' }),
    userType: z.unknown().optional().meta({ description: 'accepted and ignored' }),
    token: z
      .string()
      .min(1)
      .max(AUTH_LIMITS.tokenLength)
      .optional()
      .meta({ description: 'a valid JWT of the same user to extend' }),
  })
  .meta({ title: 'AuthUserRequest' });
export type AuthUserRequest = z.infer<typeof authUserRequestSchema>;
