import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { DecryptionError, Keyring } from './aead.js';

const key = (id: string) => ({ id, key: randomBytes(32) });

describe('Keyring (AES-256-GCM)', () => {
  it('round-trips and never contains the plaintext', () => {
    const ring = new Keyring(key('k1'));
    const sealed = ring.seal('correct horse battery staple', 'addr-1');
    expect(sealed).not.toContain('horse');
    expect(sealed.startsWith('v1.k1.')).toBe(true);
    expect(ring.open(sealed, 'addr-1')).toBe('correct horse battery staple');
  });

  it('uses a fresh IV each time', () => {
    const ring = new Keyring(key('k1'));
    expect(ring.seal('x')).not.toBe(ring.seal('x'));
  });

  it('refuses other associated data, tampering and unknown keys', () => {
    const ring = new Keyring(key('k1'));
    const sealed = ring.seal('secret', 'addr-1');
    expect(() => ring.open(sealed, 'addr-2')).toThrow(DecryptionError);
    const parts = sealed.split('.');
    const ct = Buffer.from(parts[3]!, 'base64url');
    ct[0] = ct[0]! ^ 1;
    parts[3] = ct.toString('base64url');
    expect(() => ring.open(parts.join('.'), 'addr-1')).toThrow(DecryptionError);
    expect(() => new Keyring(key('k2')).open(sealed, 'addr-1')).toThrow(/unknown master key/);
    expect(() => ring.open('garbage')).toThrow(DecryptionError);
  });

  it('refuses a sealed value whose tag is cut short (only 16-byte tags are accepted)', () => {
    const ring = new Keyring(key('k1'));
    const sealed = ring.seal('wallet secret', 'addr-1');
    const parts = sealed.split('.');
    const tag = Buffer.from(parts[4] as string, 'base64url');
    expect(tag).toHaveLength(16);
    for (const length of [4, 8, 12, 15]) {
      const truncated = [...parts.slice(0, 4), tag.subarray(0, length).toString('base64url')];
      expect(() => ring.open(truncated.join('.'), 'addr-1')).toThrow(DecryptionError);
    }
    const longer = [
      ...parts.slice(0, 4),
      Buffer.concat([tag, Buffer.alloc(1)]).toString('base64url'),
    ];
    expect(() => ring.open(longer.join('.'), 'addr-1')).toThrow(DecryptionError);
    expect(ring.open(sealed, 'addr-1')).toBe('wallet secret');
  });

  it('opens values sealed with a previous key and flags them for rotation', () => {
    const old = key('k1');
    const sealed = new Keyring(old).seal('secret');
    const rotated = new Keyring(key('k2'), [old]);
    expect(rotated.open(sealed)).toBe('secret');
    expect(rotated.needsRotation(sealed)).toBe(true);
    expect(rotated.needsRotation(rotated.seal('secret'))).toBe(false);
  });

  it('rejects keys of the wrong size', () => {
    expect(() => new Keyring({ id: 'k1', key: randomBytes(16) })).toThrow(/32 bytes/);
  });
});
