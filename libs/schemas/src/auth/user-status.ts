import { z } from 'zod';
import { plainText } from './plain-text.js';

/**
 * auth-service's internal API (`/internal/v1/users/status`, bearer INTERNAL_TOKEN_DID_TO_AUTH;
 * never routed by the gateway): may this user still act? Services that act for a user with a JWT
 * (did-service: create-did with a bearer, create-vc, create-vp) ask before every such write, so
 * that a disabled user, or a token ended by a reset or a logout everywhere, is refused within
 * seconds although the JWT is still valid.
 */
export const userStatusRequestSchema = z
  .object({ userId: plainText(256) })
  .meta({ title: 'UserStatusRequest' });
export type UserStatusRequest = z.infer<typeof userStatusRequestSchema>;

export const userStatusResponseSchema = z
  .object({
    userId: z.string(),
    /** false for a disabled user and for an id that does not exist (any more). */
    active: z.boolean(),
    /**
     * The user's security epoch (epoch seconds, docs/api.md §12): a platform JWT whose `iat` is
     * before it is refused. 0 when nothing has ended tokens yet (and from an older auth-service
     * that does not send it).
     */
    tokensValidAfter: z.number().int().nonnegative().default(0),
  })
  .meta({ title: 'UserStatusResponse' });
export type UserStatusResponse = z.infer<typeof userStatusResponseSchema>;
