import { z } from 'zod';

/** docs/api.md §2.1: the answer of auth-user, auth-user-with-vp and auth-user-result-by-app. */
export const loginResultSchema = z
  .object({
    token: z.string().meta({ description: 'JWT (ES256), newly issued' }),
    userId: z.string().meta({ description: 'user identifier' }),
    name: z.string().meta({ description: 'user name' }),
    telNo: z.string().nullable().meta({ description: 'telephone number, or null' }),
    email: z.string().meta({ description: 'e-mail address; may be an empty string' }),
  })
  .meta({ title: 'LoginResult' });
export type LoginResult = z.infer<typeof loginResultSchema>;
