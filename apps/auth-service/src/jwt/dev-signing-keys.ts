import { join } from 'node:path';
import {
  loadOrCreateDevSecret,
  newEcSigningJwk,
  newRsaSigningJwk,
  resolveDeploymentSecret,
} from '@itp/crypto';
import { ConfigError } from '@itp/service-kit';
import { signingKeyEntries } from './signing-keys.js';

export interface SigningKeysSource {
  APP_ENV: string;
  DATA_DIR: string;
  JWT_SIGNING_KEYS?: string;
}

/** The development signing keys' file name under `<DATA_DIR>/secrets/`. */
const DEV_SIGNING_KEYS_FILE = 'jwt-signing-keys.json';

/**
 * The development RSA key (RS256 id_tokens) under `<DATA_DIR>/secrets/`: its own file, so that a
 * data folder made before RS256 existed gets one beside its EC key without rewriting that file.
 */
const DEV_RSA_SIGNING_KEY_FILE = 'jwt-signing-keys-rs256.json';

/** `<DATA_DIR>/secrets/jwt-signing-keys.json`: the development signing keys. */
export function devSigningKeysFile(dataDir: string): string {
  return join(dataDir, 'secrets', DEV_SIGNING_KEYS_FILE);
}

/** A fresh key set (one new ES256 key) as the JSON the file holds. */
function freshKeySetJson(): string {
  return JSON.stringify([newEcSigningJwk()], null, 2);
}

/**
 * Reads the file, or creates it with one new key when missing — through @itp/crypto's
 * loadOrCreateDevSecret (mode 0600, linked into place: instances starting together share one key).
 */
export async function loadOrCreateDevSigningKeys(file: string): Promise<string> {
  return loadOrCreateDevSecret(file, freshKeySetJson);
}

/**
 * The JSON of the signing keys: JWT_SIGNING_KEYS when set; otherwise, in development only, the
 * development file in DATA_DIR (created on first start, so tokens survive a restart) — the same
 * resolution as every other deployment secret (@itp/crypto resolveDeploymentSecret) — with the
 * RSA key of its own file when that file holds none. Anything but development (production,
 * test, …) without the secret is a ConfigError: no start. Keys are generated only for a file
 * that does not exist yet.
 */
export async function resolveSigningKeysJson(config: SigningKeysSource): Promise<string> {
  const json = resolveDeploymentSecret(
    config,
    config.JWT_SIGNING_KEYS,
    DEV_SIGNING_KEYS_FILE,
    freshKeySetJson,
  );
  if (json === undefined) {
    throw new ConfigError([
      `JWT_SIGNING_KEYS: required when APP_ENV=${config.APP_ENV} (JSON array of private EC P-256 JWKs, and an RSA one for RS256; see apps/auth-service/README.md)`,
    ]);
  }
  if (config.JWT_SIGNING_KEYS || hasRsaKey(json)) return json;
  // Development without the secret (the only way here): the RSA key from its own file.
  const rsa = loadOrCreateDevSecret(
    join(config.DATA_DIR, 'secrets', DEV_RSA_SIGNING_KEY_FILE),
    () => JSON.stringify([newRsaSigningJwk()]),
  );
  return JSON.stringify([...entriesOf(json), ...entriesOf(rsa)]);
}

/** The keys of a signing-keys JSON value ([] when it is not one: parseSigningKeys says why). */
function entriesOf(json: string): unknown[] {
  try {
    return signingKeyEntries(JSON.parse(json)) ?? [];
  } catch {
    return [];
  }
}

function hasRsaKey(json: string): boolean {
  return entriesOf(json).some((jwk) => (jwk as { kty?: unknown } | null)?.kty === 'RSA');
}
