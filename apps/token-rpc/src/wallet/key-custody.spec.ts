import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { DecryptionError, Keyring } from '@itp/crypto';
import { KeyCustody } from './key-custody.js';

const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };
const secrets = {
  privateKey: `0x${'11'.repeat(32)}`,
  mnemonic: 'word '.repeat(12).trim(),
  secretKey: 'ab'.repeat(32),
};
const A = '0x1000000000000000000000000000000000000001';
const B = '0x2000000000000000000000000000000000000002';

describe('KeyCustody', () => {
  it('seals every secret (no plain text) and opens them again', () => {
    const custody = new KeyCustody(new Keyring(k1));
    const sealed = custody.seal(A, secrets);
    for (const value of Object.values(sealed)) {
      expect(value.startsWith('v1.k1.')).toBe(true);
      for (const secret of Object.values(secrets)) expect(value).not.toContain(secret);
    }
    expect(custody.open(A, sealed)).toEqual(secrets);
    expect(custody.openSecretKey(A, sealed)).toBe(secrets.secretKey);
  });

  it('binds a sealed value to its address and its field', () => {
    const custody = new KeyCustody(new Keyring(k1));
    const sealed = custody.seal(A, secrets);
    expect(() => custody.open(B, sealed)).toThrow(DecryptionError);
    expect(() => custody.openPrivateKey(A, { privateKeySealed: sealed.secretKeySealed })).toThrow(
      DecryptionError,
    );
  });

  it('opens values sealed under a previous master key and reports them for re-sealing', () => {
    const old = new KeyCustody(new Keyring(k1)).seal(A, secrets);
    const rotated = new KeyCustody(new Keyring(k2, [k1]));
    expect(rotated.needsRotation(old)).toBe(true);
    expect(rotated.open(A, old)).toEqual(secrets);
    const resealed = rotated.seal(A, rotated.open(A, old));
    expect(rotated.needsRotation(resealed)).toBe(false);
    expect(() => new KeyCustody(new Keyring(k2)).open(A, old)).toThrow(DecryptionError);
  });
});
