import { join } from 'node:path';
import { loadOrCreateDevSecret, resolveDeploymentSecret } from '@itp/crypto';
import { ConfigError } from '@itp/service-kit';
import { generateRsaSigningJwk, generateSigningJwk } from './signing-keys.js';

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
async function freshKeySetJson(): Promise<string> {
  return JSON.stringify([await generateSigningJwk()], null, 2);
}

/**
 * Reads the file, or creates it with one new key when missing — through @itp/crypto's
 * loadOrCreateDevSecret (mode 0600, linked into place: instances starting together share one key).
 */
export async function loadOrCreateDevSigningKeys(file: string): Promise<string> {
  const candidate = await freshKeySetJson();
  return loadOrCreateDevSecret(file, () => candidate);
}

/**
 * The JSON of the signing keys: JWT_SIGNING_KEYS when set; otherwise, in development only, the
 * development file in DATA_DIR (created on first start, so tokens survive a restart) — the same
 * resolution as every other deployment secret (@itp/crypto resolveDeploymentSecret). Anything
 * but development (production, test, …) without the secret is a ConfigError: no start.
 */
export async function resolveSigningKeysJson(config: SigningKeysSource): Promise<string> {
  const candidate =
    config.JWT_SIGNING_KEYS || config.APP_ENV !== 'development' ? '' : await freshKeySetJson();
  const json = resolveDeploymentSecret(
    config,
    config.JWT_SIGNING_KEYS,
    DEV_SIGNING_KEYS_FILE,
    () => candidate,
  );
  if (json === undefined) {
    throw new ConfigError([
      `JWT_SIGNING_KEYS: required when APP_ENV=${config.APP_ENV} (JSON array of private EC P-256 JWKs, and an RSA one for RS256; see apps/auth-service/README.md)`,
    ]);
  }
  if (config.JWT_SIGNING_KEYS || hasRsaKey(json)) return json;
  // Development without the secret: the RSA key from its own file (created on first start).
  const rsaCandidate =
    config.APP_ENV === 'development' ? JSON.stringify([await generateRsaSigningJwk()]) : '';
  const rsa = resolveDeploymentSecret(
    config,
    undefined,
    DEV_RSA_SIGNING_KEY_FILE,
    () => rsaCandidate,
  );
  return rsa === undefined ? json : JSON.stringify([...keyList(json), ...keyList(rsa)]);
}

function keyList(json: string): unknown[] {
  const parsed: unknown = JSON.parse(json);
  const list: unknown = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown })?.keys;
  return Array.isArray(list) ? list : [];
}

function hasRsaKey(json: string): boolean {
  try {
    return keyList(json).some((jwk) => (jwk as { kty?: unknown } | null)?.kty === 'RSA');
  } catch {
    return false; // parseSigningKeys says what is wrong with it
  }
}
