import { randomBytes } from 'node:crypto';
import type { MasterKey } from './aead.js';
import { loadOrCreateDevSecret } from './dev-secret.js';

/**
 * Parses a master key given as a deployment secret: `<id>:<base64 of 32 bytes>` or just the
 * base64 (id "k1"). Hex (64 chars) is accepted too.
 */
export function parseMasterKey(value: string): MasterKey {
  const idx = value.indexOf(':');
  const id = idx > 0 ? value.slice(0, idx) : 'k1';
  const material = idx > 0 ? value.slice(idx + 1) : value;
  const key = /^[0-9a-fA-F]{64}$/.test(material)
    ? Buffer.from(material, 'hex')
    : Buffer.from(material, 'base64');
  if (key.length !== 32) throw new Error('master key must decode to 32 bytes');
  return { id, key };
}

/**
 * Dev mode only: the master key kept in the data folder, generated on first use (file mode 0600).
 * Production supplies the key as a secret instead (see each service's config).
 */
export function loadOrCreateDevMasterKey(file: string): MasterKey {
  return parseMasterKey(
    loadOrCreateDevSecret(file, () => `dev1:${randomBytes(32).toString('base64')}`),
  );
}
