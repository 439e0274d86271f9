import { z } from 'zod';

/** Limits of create-vc's userInfo (the VC stays small enough for a QR code and a JWT header). */
export const USER_INFO_LIMITS = {
  maxKeys: 32,
  maxKeyLength: 64,
  maxStringLength: 1024,
  /** Size of the whole object as compact JSON, in UTF-8 bytes. */
  maxBytes: 8192,
} as const;

/**
 * Claims the service derives (docs/api.md §3): the holder and the user in credentialSubject (`id`,
 * `sub`, `userId`) and the JWT claim names (`iss`, `nbf`, `exp`, `iat`, `jti`, `vc`, `vp`).
 * userInfo may not set any of them (400 naming the key): a VC signed by the service never says
 * something about identity that the caller chose.
 */
export const USER_INFO_RESERVED_KEYS = [
  'id',
  'sub',
  'userId',
  'iss',
  'nbf',
  'exp',
  'iat',
  'jti',
  'vc',
  'vp',
] as const;

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const userInfoValue = z.union([
  z.string().max(USER_INFO_LIMITS.maxStringLength),
  z.number().finite(),
  z.boolean(),
]);

/**
 * create-vc's userInfo: a flat object of string / number / boolean values (no nesting, no null),
 * at most 32 keys of [A-Za-z_][A-Za-z0-9_.-]* up to 64 characters, at most 8 KiB as JSON;
 * the claims the service derives are reserved (USER_INFO_RESERVED_KEYS), and `__proto__` is
 * refused (not dropped).
 */
export const userInfoSchema = z
  .preprocess(
    (value, ctx) => {
      // JSON.parse makes "__proto__" an own key; zod's record drops it silently: refuse it.
      if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) {
        ctx.issues.push({
          code: 'custom',
          path: ['__proto__'],
          message: 'is not an allowed key',
          input: value,
        });
      }
      return value;
    },
    z
      .record(
        z
          .string()
          .min(1)
          .max(USER_INFO_LIMITS.maxKeyLength)
          .regex(KEY, 'keys must match [A-Za-z_][A-Za-z0-9_.-]*')
          .refine((key) => !(USER_INFO_RESERVED_KEYS as readonly string[]).includes(key), {
            message: `is reserved: the service sets it (reserved keys: ${USER_INFO_RESERVED_KEYS.join(', ')})`,
          }),
        userInfoValue,
      )
      .refine((info) => Object.keys(info).length <= USER_INFO_LIMITS.maxKeys, {
        message: `must have at most ${USER_INFO_LIMITS.maxKeys} keys`,
      })
      .refine(
        (info) => Buffer.byteLength(JSON.stringify(info), 'utf8') <= USER_INFO_LIMITS.maxBytes,
        { message: `must be at most ${USER_INFO_LIMITS.maxBytes} bytes as JSON` },
      ),
  )
  .meta({
    title: 'UserInfo',
    description:
      'flat key/value pairs added to credentialSubject (string, number or boolean values)',
  });
export type UserInfo = z.infer<typeof userInfoSchema>;
