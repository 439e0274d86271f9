import { AbstractSecretBox } from '@veramo/key-manager';
import { SecretBox } from '@veramo/kms-local';
import { DecryptionError, Keyring, parseMasterKey, type MasterKey } from '@itp/crypto';

/**
 * The encryption at rest of the local KMS's private keys (the service's issuer / verifier keys in
 * Veramo's `private-key` table), with rotation: the same scheme as token-rpc's wallet
 * (`@itp/crypto` Keyring, ADR 0005, ADR 0016). DID_KMS_SECRET_KEY is the current key, every write
 * seals under it; DID_KMS_PREVIOUS_SECRET_KEYS are keys rotated away from, still opened.
 *
 * Stored forms:
 * - `v1.<key id>.<iv>.<ciphertext>.<tag>`: AES-256-GCM (Keyring), written by this release;
 * - hex nonce ‖ XSalsa20-Poly1305 box: Veramo's kms-local SecretBox, written by earlier releases
 *   (no key id). Opened by trying each configured key (Poly1305 tells a wrong key apart).
 *
 * Unlike Veramo's SecretBox (which answers an empty string for a wrong key), a value no configured
 * key opens throws KmsKeyUnavailableError, naming the key id it needs, never a value.
 */

/** Ids as the wallet's master keys: what names a key in sealed values and in rotations. */
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** Associated data of every sealed private key: a value sealed for another purpose never opens here. */
const ASSOCIATED_DATA = 'did-service/kms-private-key';
/** The id of a key given without one (64 hex digits, the format of earlier releases). */
export const DEFAULT_KMS_KEY_ID = 'k1';

export interface KmsKeys {
  current: MasterKey;
  previous: MasterKey[];
}

/**
 * One DID_KMS_SECRET_KEY value: 64 hex digits (id `k1`, the format of earlier releases) or
 * `<id>:<64 hex digits | base64 of 32 bytes>`. Throws a message that never holds the value.
 */
export function parseKmsKey(value: string): MasterKey {
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) {
    return { id: DEFAULT_KMS_KEY_ID, key: Buffer.from(trimmed, 'hex') };
  }
  const idx = trimmed.indexOf(':');
  if (idx <= 0 || !KEY_ID.test(trimmed.slice(0, idx))) {
    throw new Error(
      'must be 64 hex digits or "<id>:<64 hex digits | base64 of 32 bytes>" (id: A–Z, a–z, 0–9, _ and -, up to 32)',
    );
  }
  try {
    return parseMasterKey(trimmed);
  } catch {
    throw new Error('the key after "<id>:" must be 32 bytes (64 hex digits or base64)');
  }
}

/** DID_KMS_PREVIOUS_SECRET_KEYS: a comma list of parseKmsKey values (empty entries ignored). */
export function parseKmsKeyList(value: string | undefined): MasterKey[] {
  return (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k.length > 0)
    .map(parseKmsKey);
}

/**
 * Problems of a key set that make rotation ambiguous: two keys with one id (a sealed value names
 * its key by id only). Messages name the setting and the id, never a value.
 */
export function kmsKeyIssues(keys: KmsKeys): string[] {
  const issues: string[] = [];
  const seen = new Set([keys.current.id]);
  for (const key of keys.previous) {
    if (seen.has(key.id)) {
      issues.push(
        key.id === keys.current.id
          ? `DID_KMS_PREVIOUS_SECRET_KEYS: key id "${key.id}" is also the id of DID_KMS_SECRET_KEY: give the new key an id of its own ("<new id>:<64 hex digits>")`
          : `DID_KMS_PREVIOUS_SECRET_KEYS: key id "${key.id}" is given twice`,
      );
    }
    seen.add(key.id);
  }
  return issues;
}

/** What sealedUnder answers for a value in the SecretBox format of earlier releases. */
export const LEGACY = '(SecretBox, no key id)';

/** A stored private key that no configured key opens: the start stops with this (never a value). */
export class KmsKeyUnavailableError extends Error {
  constructor(readonly sealedUnder: string) {
    super(
      sealedUnder === LEGACY
        ? 'a private key of the local KMS is sealed in the SecretBox format of earlier releases and neither DID_KMS_SECRET_KEY nor any of DID_KMS_PREVIOUS_SECRET_KEYS opens it'
        : `a private key of the local KMS is sealed under key id "${sealedUnder}", which neither DID_KMS_SECRET_KEY nor DID_KMS_PREVIOUS_SECRET_KEYS holds with the value it was sealed with`,
    );
    this.name = 'KmsKeyUnavailableError';
  }
}

/**
 * Veramo's AbstractSecretBox over the keyring: plug into `new PrivateKeyStore(dataSource, box)`.
 */
export class KmsSecretBox extends AbstractSecretBox {
  private readonly keyring: Keyring;
  /** Earlier releases' SecretBox under each configured key, current first. */
  private readonly legacyBoxes: SecretBox[];

  constructor(readonly keys: KmsKeys) {
    super();
    const issues = kmsKeyIssues(keys);
    if (issues.length > 0) throw new Error(issues.join('; '));
    this.keyring = new Keyring(keys.current, keys.previous);
    this.legacyBoxes = [keys.current, ...keys.previous].map(
      (k) => new SecretBox(k.key.toString('hex')),
    );
  }

  get currentKeyId(): string {
    return this.keys.current.id;
  }

  async encrypt(message: string): Promise<string> {
    return this.keyring.seal(message, ASSOCIATED_DATA);
  }

  async decrypt(stored: string): Promise<string> {
    if (stored.startsWith('v1.')) {
      try {
        return this.keyring.open(stored, ASSOCIATED_DATA);
      } catch (err) {
        if (err instanceof DecryptionError) throw new KmsKeyUnavailableError(sealedUnder(stored));
        throw err;
      }
    }
    if (/^[0-9a-fA-F]+$/.test(stored) && stored.length % 2 === 0) {
      for (const box of this.legacyBoxes) {
        const opened = await box.decrypt(stored);
        if (opened !== '') return opened;
      }
    }
    throw new KmsKeyUnavailableError(LEGACY);
  }

  /** True when `stored` is sealed under the current key (nothing to re-encrypt). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`v1.${this.keys.current.id}.`);
  }
}

/** The key id a stored value names, or LEGACY for the SecretBox format of earlier releases. */
export function sealedUnder(stored: string): string {
  if (!stored.startsWith('v1.')) return LEGACY;
  return stored.split('.')[1] ?? LEGACY;
}
