import { z } from 'zod';

/** Rules for user data entered by operators (CLI, dev seed). Login input is not restricted. */
export const userIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/,
    'must be 1-128 characters: letters, digits and . _ @ + - (starting with a letter or digit)',
  );

/** OWASP: at least 8 characters; long passphrases allowed. */
export const newPasswordSchema = z
  .string()
  .min(8, 'must have at least 8 characters')
  .max(1024, 'must have at most 1024 characters');

export const newUserFieldsSchema = z.object({
  id: userIdSchema,
  name: z.string().trim().min(1, 'must not be empty').max(200),
  email: z.union([z.literal(''), z.email().max(320)]).default(''),
  telNo: z
    .string()
    .regex(/^\+?[0-9][0-9 ()-]{2,31}$/, 'must be a telephone number (digits, +, space, -, ())')
    .nullable()
    .default(null),
  password: newPasswordSchema,
});
export type NewUserFields = z.input<typeof newUserFieldsSchema>;
