import { describe, expect, it } from '@jest/globals';
import {
  JWT_SIGNATURE_PLACEHOLDER,
  MNEMONIC_PLACEHOLDER,
  PASSWORD_PLACEHOLDER,
  PUBLIC_TEST_MNEMONIC,
  SECRET_KEY_PLACEHOLDER,
  assertNoSecrets,
  redactSecrets,
} from './placeholders.js';

const REAL_SECRET_KEY = 'a1'.repeat(32);
const REAL_JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJkZW1vIn0.c2lnbmF0dXJlLW9mLXRoZS1yZWFsLXRva2Vu';

describe('redactSecrets', () => {
  it('replaces secret members at any depth and reports the real values', () => {
    const { value, replaced } = redactSecrets({
      params: { mnemonic: 'word '.repeat(11) + 'word', password: 'hunter2-hunter2' },
      result: {
        resultData: { address: '0xabc', secretKey: REAL_SECRET_KEY },
        list: [{ token: REAL_JWT, userId: 'demo' }],
        keys: [{ meta: { secretKey: '' } }],
      },
    });
    expect(value).toEqual({
      params: { mnemonic: MNEMONIC_PLACEHOLDER, password: PASSWORD_PLACEHOLDER },
      result: {
        resultData: { address: '0xabc', secretKey: SECRET_KEY_PLACEHOLDER },
        list: [
          {
            token: `eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJkZW1vIn0.${JWT_SIGNATURE_PLACEHOLDER}`,
            userId: 'demo',
          },
        ],
        keys: [{ meta: { secretKey: '' } }],
      },
    });
    expect(replaced.sort()).toEqual(
      ['word '.repeat(11) + 'word', 'hunter2-hunter2', REAL_SECRET_KEY, REAL_JWT].sort(),
    );
  });

  it('keeps placeholders schema-shaped: 64 hex digits, 12 words, a three-part JWT', () => {
    expect(SECRET_KEY_PLACEHOLDER).toMatch(/^[0-9a-f]{64}$/);
    expect(MNEMONIC_PLACEHOLDER.split(' ')).toHaveLength(12);
    const { value } = redactSecrets({ token: REAL_JWT });
    expect(value.token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('keeps the public BIP-39 test vector, which is no secret', () => {
    const { value, replaced } = redactSecrets({ mnemonic: PUBLIC_TEST_MNEMONIC });
    expect(value).toEqual({ mnemonic: PUBLIC_TEST_MNEMONIC });
    expect(replaced).toEqual([]);
  });

  it('refuses to pass a `token` member that is no JWT', () => {
    expect(() => redactSecrets({ token: 'opaque secret value' })).toThrow(/no JWT/);
  });
});

describe('assertNoSecrets', () => {
  it('finds a secret, or the signature of a JWT, anywhere in the text without printing it', () => {
    const check = (text: string) => () => assertNoSecrets(text, [REAL_SECRET_KEY, REAL_JWT], 'x');
    expect(check('nothing here')).not.toThrow();
    expect(check(`{"k":"${REAL_SECRET_KEY}"}`)).toThrow(/x still holds a secret/);
    expect(check('…c2lnbmF0dXJlLW9mLXRoZS1yZWFsLXRva2Vu…')).toThrow(/secret/);
    let message = '';
    try {
      check(REAL_SECRET_KEY)();
    } catch (err) {
      message = String(err);
    }
    expect(message).toMatch(/still holds a secret/);
    expect(message).not.toContain(REAL_SECRET_KEY);
  });
});
