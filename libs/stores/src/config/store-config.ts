import { z } from 'zod';

function hasProtocol(value: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Store settings every service shares; spread into the service's schema next to baseConfigShape.
 * Messages never echo the value: URLs can carry passwords.
 */
export const storeConfigShape = {
  /** `redis://` or `rediss://`. Unset: the in-process stand-in (development only). */
  REDIS_URL: z
    .string()
    .refine((v) => hasProtocol(v, ['redis:', 'rediss:']), {
      message: 'must be a redis:// or rediss:// URL',
    })
    .optional(),
  /** `postgres://…`, `postgresql://…` or `sqlite:<path>`. Unset in development: a SQLite file. */
  DATABASE_URL: z
    .string()
    .refine(
      (v) =>
        hasProtocol(v, ['postgres:', 'postgresql:']) ||
        (v.startsWith('sqlite:') && v.length > 'sqlite:'.length),
      { message: 'must be a postgres://, postgresql:// or sqlite:<path> URL' },
    )
    .optional(),
  /** Where development SQLite files live (`<DATA_DIR>/<service>.sqlite`). */
  DATA_DIR: z.string().min(1).default('./data'),
  /** Namespace for the service's Redis keys; services default to their own, e.g. `auth:`. */
  REDIS_KEY_PREFIX: z.string().min(1).optional(),
} as const;

export interface StoreConfig {
  REDIS_URL?: string;
  DATABASE_URL?: string;
  DATA_DIR: string;
  REDIS_KEY_PREFIX?: string;
}
