import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  estimateSecretBits,
  keyMaterialBytes,
  secretWeakness,
  weakSecretIssues,
  weakSecretListIssues,
} from './secret-strength.js';

describe('secretWeakness', () => {
  it('accepts freshly generated secrets in every form the services take', () => {
    for (const value of [
      randomBytes(32).toString('hex'),
      randomBytes(32).toString('base64'),
      `k1:${randomBytes(32).toString('base64')}`,
      randomBytes(32).toString('base64url'),
    ]) {
      expect(secretWeakness(value)).toBeUndefined();
    }
  });

  it('refuses the values published in this repository, whatever their case', () => {
    expect(secretWeakness('compose-demo-internal-token-change-me')).toMatch(/published/);
    expect(secretWeakness('COMPOSE-DEMO-INTERNAL-TOKEN-CHANGE-ME')).toMatch(/published/);
    expect(secretWeakness(`please-change-me-${randomBytes(32).toString('hex')}`)).toMatch(
      /placeholder/,
    );
  });

  it('refuses key material whose bytes are all the same', () => {
    expect(secretWeakness('0'.repeat(64))).toMatch(/all the same/);
    expect(secretWeakness(`k1:${Buffer.alloc(32, 7).toString('base64')}`)).toMatch(/all the same/);
  });

  it('refuses patterns and short or repetitive text below 128 bits', () => {
    const run = Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('hex');
    expect(secretWeakness(run)).toMatch(/bits of entropy/);
    expect(secretWeakness('0123456789abcdef'.repeat(4))).toMatch(/bits of entropy/);
    expect(secretWeakness('abcd'.repeat(10))).toMatch(/bits of entropy/);
    expect(secretWeakness(`internal-token-${'1'.repeat(20)}`)).toMatch(/bits of entropy/);
    expect(secretWeakness(randomBytes(8).toString('hex'))).toBeDefined();
  });

  it('counts at most 8 bits per byte of random key material and less for text', () => {
    const key = estimateSecretBits(randomBytes(32).toString('hex'));
    expect(key).toBeGreaterThanOrEqual(128);
    expect(key).toBeLessThanOrEqual(256);
    expect(estimateSecretBits('x'.repeat(40))).toBe(0);
  });

  it('refuses text that happens to be valid base64: it reads as words', () => {
    // 44 alphanumeric characters decode as 33 bytes of "key material" (264 bits), yet are words.
    const sentence = 'MySuperSecretPasswordForTheInternalApiToken1';
    expect(Buffer.from(sentence, 'base64').toString('base64')).toBe(sentence);
    expect(secretWeakness(sentence)).toMatch(/reads as words/);
    // A keyboard walk or a sequence written as base64url is no key either.
    expect(secretWeakness('qwertyuiopasdfghjklzxcvbnmqwertyuiopasdfghjk')).toMatch(
      /reads as words|bits of entropy/,
    );
    expect(secretWeakness('correct-horse-battery-staple-correct-horse-battery')).toMatch(/bits/);
    // Real key material still passes; 16 random bytes are below the bar.
    expect(secretWeakness(randomBytes(32).toString('base64'))).toBeUndefined();
    expect(secretWeakness(randomBytes(16).toString('hex'))).toMatch(/bits of entropy/);
  });
});

describe('secretWeakness: key material only', () => {
  it('refuses an English phrase, however it is written, as no key material', () => {
    const phrase = 'thisismyinternaltokenfortheauthservicepleasedontshare';
    // Character statistics alone let it through (it scores 128 bits and more)…
    expect(estimateSecretBits(phrase)).toBeGreaterThanOrEqual(128);
    // …but it is no key.
    expect(secretWeakness(phrase)).toMatch(/not key material|reads as words/);
    for (const written of [
      // 52 characters: valid base64url, 39 bytes of "key material" that are words.
      phrase.slice(0, 52),
      'ThisIsMyInternalTokenForTheAuthServicePleaseDontShare',
      'this-is-my-internal-token-for-the-auth-service-please-dont-share',
      'Th1s1sMyInternalT0kenForTheAuthServicePleaseD0ntShare',
      'internal_token_auth_to_did_production_2024_secret_value',
    ]) {
      expect({ written, weakness: secretWeakness(written) }).toEqual({
        written,
        weakness: expect.stringMatching(/not key material|reads as words|bits of entropy/),
      });
    }
    expect(secretWeakness(phrase.slice(0, 52))).toMatch(/reads as words/);
  });

  it('accepts 32 random bytes as hex (64 digits) or base64url (43 characters), and fresh ones every time', () => {
    for (let i = 0; i < 25; i += 1) {
      const bytes = randomBytes(32);
      for (const value of [bytes.toString('hex'), bytes.toString('base64url')]) {
        expect({ value, weakness: secretWeakness(value) }).toEqual({ value, weakness: undefined });
      }
    }
    expect(randomBytes(32).toString('hex')).toHaveLength(64);
    expect(randomBytes(32).toString('base64url')).toHaveLength(43);
  });

  it('never refuses random bytes that spell a short word by chance (zxcvbn read one fresh base64url key in a few thousand as 127 bits)', () => {
    expect(secretWeakness('5mrmR6tOFg0M9Iq-CnTOminevuWFRfMXicfloGVoXCY')).toBeUndefined();
    for (let i = 0; i < 300; i += 1) {
      const bytes = randomBytes(32);
      for (const value of [bytes.toString('base64url'), bytes.toString('base64')]) {
        expect({ value, weakness: secretWeakness(value) }).toEqual({ value, weakness: undefined });
      }
    }
  });

  it('reads key material as hex, base64url or padded base64 of 32+ bytes, after an optional id', () => {
    const bytes = randomBytes(32);
    for (const value of [
      bytes.toString('hex'),
      `0x${bytes.toString('hex')}`,
      bytes.toString('base64url'),
      bytes.toString('base64'),
      `k1:${bytes.toString('base64')}`,
      `k20250131a1b2:${bytes.toString('hex')}`,
    ]) {
      expect(Buffer.from(keyMaterialBytes(value)!)).toEqual(bytes);
    }
    // 31 bytes, text, a base64 that does not round-trip: none.
    expect(keyMaterialBytes(randomBytes(31).toString('hex'))).toBeUndefined();
    expect(keyMaterialBytes(randomBytes(31).toString('base64url'))).toBeUndefined();
    expect(keyMaterialBytes('not key material, a sentence with spaces in it')).toBeUndefined();
    expect(keyMaterialBytes(`${bytes.toString('base64url')}xy`)).toBeUndefined();
  });
});

describe('weakSecretIssues', () => {
  it('names the variable of a phrase, never the phrase', () => {
    const phrase = 'thisismyinternaltokenfortheauthservicepleasedontshare';
    const issues = weakSecretIssues({ INTERNAL_TOKEN_AUTH_TO_DID: phrase });
    expect(issues).toEqual([expect.stringMatching(/^INTERNAL_TOKEN_AUTH_TO_DID: /)]);
    expect(issues[0]).not.toContain(phrase);
    expect(issues[0]).not.toContain('thisis');
  });

  it('names each weak secret and why, never its value, and skips unset ones', () => {
    const issues = weakSecretIssues({
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: 'compose-demo-internal-token-change-me',
      WALLET_MASTER_KEY: randomBytes(32).toString('base64'),
      DID_KMS_SECRET_KEY: undefined,
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^INTERNAL_TOKEN_DID_TO_TOKEN_RPC: /);
    expect(issues[0]).not.toMatch(/compose-demo/);
  });
});

describe('weakSecretListIssues', () => {
  it('checks every entry of a list setting, naming the entry, never its value', () => {
    const strong = randomBytes(32).toString('base64url');
    expect(weakSecretListIssues('INTERNAL_API_ACCEPTED_TOKENS', undefined)).toEqual([]);
    expect(weakSecretListIssues('INTERNAL_API_ACCEPTED_TOKENS', [strong])).toEqual([]);
    const issues = weakSecretListIssues('INTERNAL_API_ACCEPTED_TOKENS', [
      strong,
      'compose-demo-internal-token-change-me',
    ]);
    expect(issues).toEqual([
      expect.stringMatching(/^INTERNAL_API_ACCEPTED_TOKENS \(entry 2\): .*published/),
    ]);
    expect(issues[0]).not.toContain('compose-demo');
  });
});
