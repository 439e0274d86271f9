import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SecretBox } from '@veramo/kms-local';
import {
  KmsKeyUnavailableError,
  KmsSecretBox,
  LEGACY,
  kmsKeyIssues,
  parseKmsKey,
  parseKmsKeyList,
  sealedUnder,
} from './kms-keyring.js';

const hexKey = () => randomBytes(32).toString('hex');
const privateKeyHex = randomBytes(32).toString('hex');

describe('parseKmsKey', () => {
  it('reads 64 hex digits as id k1 and "<id>:<hex | base64>" with its id', () => {
    const raw = randomBytes(32);
    expect(parseKmsKey(raw.toString('hex'))).toEqual({ id: 'k1', key: raw });
    expect(parseKmsKey(`k2:${raw.toString('hex')}`)).toEqual({ id: 'k2', key: raw });
    expect(parseKmsKey(` k_3-x:${raw.toString('base64')} `)).toEqual({ id: 'k_3-x', key: raw });
  });

  it('refuses other forms without echoing the value', () => {
    for (const bad of [
      'short',
      'ab'.repeat(31),
      `bad id:${hexKey()}`,
      'k2:c2hvcnQ=',
      `:${hexKey()}`,
    ]) {
      expect(() => parseKmsKey(bad)).toThrow(/must be|32 bytes/);
      try {
        parseKmsKey(bad);
      } catch (err) {
        if (bad.length > 8) expect((err as Error).message).not.toContain(bad);
      }
    }
  });

  it('reads a comma list, ignoring empty entries', () => {
    const [a, b] = [hexKey(), hexKey()];
    expect(parseKmsKeyList(undefined)).toEqual([]);
    expect(parseKmsKeyList(` ${a} ,, k9:${b}`).map((k) => k.id)).toEqual(['k1', 'k9']);
  });
});

describe('KmsSecretBox', () => {
  const oldKey = parseKmsKey(hexKey());
  const newKey = parseKmsKey(`k2:${hexKey()}`);

  it('seals under the current key id and opens what it sealed', async () => {
    const box = new KmsSecretBox({ current: newKey, previous: [oldKey] });
    const sealed = await box.encrypt(privateKeyHex);
    expect(sealed).toMatch(/^v1\.k2\./);
    expect(sealedUnder(sealed)).toBe('k2');
    expect(box.isCurrent(sealed)).toBe(true);
    expect(await box.decrypt(sealed)).toBe(privateKeyHex);
    expect(sealed).not.toContain(privateKeyHex);
  });

  it('opens values sealed under a previous key, and earlier releases’ SecretBox under any key', async () => {
    const before = new KmsSecretBox({ current: oldKey, previous: [] });
    const sealedOld = await before.encrypt(privateKeyHex);
    const legacy = await new SecretBox(oldKey.key.toString('hex')).encrypt(privateKeyHex);
    expect(sealedUnder(legacy)).toBe(LEGACY);
    const rotated = new KmsSecretBox({ current: newKey, previous: [oldKey] });
    expect(await rotated.decrypt(sealedOld)).toBe(privateKeyHex);
    expect(await rotated.decrypt(legacy)).toBe(privateKeyHex);
    expect(rotated.isCurrent(sealedOld)).toBe(false);
    expect(rotated.isCurrent(legacy)).toBe(false);
  });

  it('throws (never an empty key) when no configured key opens a value, naming the key id', async () => {
    const sealedOld = await new KmsSecretBox({ current: oldKey, previous: [] }).encrypt(
      privateKeyHex,
    );
    const legacy = await new SecretBox(oldKey.key.toString('hex')).encrypt(privateKeyHex);
    const without = new KmsSecretBox({ current: newKey, previous: [] });
    await expect(without.decrypt(sealedOld)).rejects.toThrow(KmsKeyUnavailableError);
    await expect(without.decrypt(sealedOld)).rejects.toThrow(/key id "k1"/);
    await expect(without.decrypt(legacy)).rejects.toThrow(/SecretBox format of earlier releases/);
    await expect(without.decrypt('not hex at all')).rejects.toThrow(KmsKeyUnavailableError);
    // The right id with another value: the GCM tag says no.
    const impostor = new KmsSecretBox({ current: parseKmsKey(hexKey()), previous: [] });
    await expect(impostor.decrypt(sealedOld)).rejects.toThrow(/key id "k1"/);
  });

  it('refuses two keys with one id (a sealed value names its key by id only)', () => {
    const sameId = parseKmsKey(hexKey());
    expect(kmsKeyIssues({ current: oldKey, previous: [sameId] })).toEqual([
      expect.stringMatching(/key id "k1" is also the id of DID_KMS_SECRET_KEY/),
    ]);
    expect(() => new KmsSecretBox({ current: oldKey, previous: [sameId] })).toThrow(/k1/);
    expect(kmsKeyIssues({ current: newKey, previous: [oldKey, sameId] })).toEqual([
      expect.stringMatching(/key id "k1" is given twice/),
    ]);
  });
});
