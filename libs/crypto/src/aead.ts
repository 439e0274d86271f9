import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption at rest: AES-256-GCM with a random 96-bit IV per message and optional
 * associated data (bind a ciphertext to its record, e.g. the address it belongs to, so it cannot be
 * moved to another row). Sealed form: `v1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url parts), so
 * keys can rotate: a Keyring opens any sealed value whose keyId it holds and seals with its
 * current key.
 */
export interface MasterKey {
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

export class DecryptionError extends Error {
  constructor(message = 'ciphertext could not be opened') {
    super(message);
    this.name = 'DecryptionError';
  }
}

const b64 = (b: Buffer) => b.toString('base64url');
/** GCM tags are always 16 bytes: a shorter tag would be accepted by OpenSSL and be forgeable. */
const TAG_BYTES = 16;
const unb64 = (s: string) => Buffer.from(s, 'base64url');

export class Keyring {
  private readonly keys: Map<string, Buffer>;

  constructor(
    private readonly current: MasterKey,
    previous: MasterKey[] = [],
  ) {
    for (const k of [current, ...previous]) {
      if (k.key.length !== 32) throw new Error(`master key ${k.id} must be 32 bytes`);
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(k.id))
        throw new Error('master key id must be [A-Za-z0-9_-]{1,32}');
    }
    this.keys = new Map([current, ...previous].map((k) => [k.id, k.key]));
  }

  seal(plaintext: string | Uint8Array, associatedData = ''): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return ['v1', this.current.id, b64(iv), b64(ct), b64(cipher.getAuthTag())].join('.');
  }

  openBytes(sealed: string, associatedData = ''): Buffer {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== 'v1') throw new DecryptionError('not a sealed value');
    const [, keyId, iv, ct, tag] = parts as [string, string, string, string, string];
    const key = this.keys.get(keyId);
    if (!key) throw new DecryptionError(`unknown master key id ${keyId}`);
    const authTag = unb64(tag);
    if (authTag.length !== TAG_BYTES) throw new DecryptionError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, unb64(iv), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(authTag);
      return Buffer.concat([decipher.update(unb64(ct)), decipher.final()]);
    } catch {
      throw new DecryptionError();
    }
  }

  open(sealed: string, associatedData = ''): string {
    return this.openBytes(sealed, associatedData).toString('utf8');
  }

  /** True when the value was sealed with an older key and should be re-sealed. */
  needsRotation(sealed: string): boolean {
    return sealed.split('.')[1] !== this.current.id;
  }
}
