import { describe, expect, it } from '@jest/globals';
import { requestIdPrefixSchema } from './client-fields.js';

describe('requestIdPrefixSchema', () => {
  it.each(['http://localhost:8080/', 'https://site.example/login/', 'https://site.example/a?'])(
    'accepts %s',
    (prefix) => {
      expect(requestIdPrefixSchema.safeParse(prefix).success).toBe(true);
    },
  );

  it.each([
    'http://localhost:8080',
    'site.example/',
    'ftp://site.example/',
    'javascript:alert(1)/',
  ])('refuses %s', (prefix) => {
    expect(requestIdPrefixSchema.safeParse(prefix).success).toBe(false);
  });
});
