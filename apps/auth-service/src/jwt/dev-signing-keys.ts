import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '@itp/service-kit';
import { generateSigningJwk } from './signing-keys.js';

export interface SigningKeysSource {
  APP_ENV: string;
  DATA_DIR: string;
  JWT_SIGNING_KEYS?: string;
}

/** `<DATA_DIR>/secrets/jwt-signing-keys.json`: the development signing keys. */
export function devSigningKeysFile(dataDir: string): string {
  return join(dataDir, 'secrets', 'jwt-signing-keys.json');
}

/**
 * Reads the file, or creates it with one new key (mode 0600) when missing. Creation is atomic
 * (written to a temporary file, then hard-linked into place, which fails when another instance
 * won the race; the winner's file is read then), so instances starting together share one key.
 */
export async function loadOrCreateDevSigningKeys(file: string): Promise<string> {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, `${JSON.stringify([await generateSigningJwk()], null, 2)}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  try {
    linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temp, { force: true });
  }
  return readFileSync(file, 'utf8');
}

/**
 * The JSON of the signing keys: JWT_SIGNING_KEYS when set; otherwise, in development only, the
 * development file in DATA_DIR (created on first start, so tokens survive a restart). Anything
 * but development (production, test, …) without the secret is a ConfigError: no start.
 */
export async function resolveSigningKeysJson(config: SigningKeysSource): Promise<string> {
  if (config.JWT_SIGNING_KEYS) return config.JWT_SIGNING_KEYS;
  if (config.APP_ENV !== 'development') {
    throw new ConfigError([
      `JWT_SIGNING_KEYS: required when APP_ENV=${config.APP_ENV} (JSON array of private EC P-256 JWKs; see apps/auth-service/README.md)`,
    ]);
  }
  return loadOrCreateDevSigningKeys(devSigningKeysFile(config.DATA_DIR));
}
