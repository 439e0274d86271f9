import { describe, expect, it } from '@jest/globals';
import { Argon2PasswordHasher, OWASP_ARGON2ID } from './argon2-password-hasher.js';

describe('Argon2PasswordHasher', () => {
  const hasher = new Argon2PasswordHasher();

  it('hashes with argon2id and the OWASP parameters, with a fresh salt each time', async () => {
    const a = await hasher.hash('correct horse');
    const b = await hasher.hash('correct horse');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
    expect(hasher.needsRehash(a)).toBe(false);
  });

  it('verifies the right secret only and never throws on a broken hash', async () => {
    const h = await hasher.hash('s3cret');
    await expect(hasher.verify(h, 's3cret')).resolves.toBe(true);
    await expect(hasher.verify(h, 's3creT')).resolves.toBe(false);
    await expect(hasher.verify('not a hash', 's3cret')).resolves.toBe(false);
    await expect(hasher.verifyDummy('anything')).resolves.toBe(false);
  });

  it('asks for a rehash when the parameters changed', async () => {
    const weak = new Argon2PasswordHasher({ ...OWASP_ARGON2ID, memoryCost: 8192, timeCost: 1 });
    const h = await weak.hash('x');
    expect(hasher.needsRehash(h)).toBe(true);
    expect(hasher.needsRehash('garbage')).toBe(true);
    await expect(hasher.verify(h, 'x')).resolves.toBe(true);
  });
});
