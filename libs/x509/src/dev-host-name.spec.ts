import { describe, expect, it } from '@jest/globals';
import { devHostName } from './dev-host-name.js';
import { DevPkiError } from './dev-pki-error.js';

describe('devHostName', () => {
  it('lower-cases a DNS host name', () => {
    expect(devHostName('LocalHost')).toBe('localhost');
    expect(devHostName('verifier-1.example.test')).toBe('verifier-1.example.test');
  });

  it('refuses IP addresses, paths, ports and empty labels', () => {
    for (const host of [
      '127.0.0.1',
      '::1',
      '../x',
      'a/b',
      'a:3000',
      'a..b',
      '-a',
      '',
      'x'.repeat(64),
    ]) {
      expect(() => devHostName(host)).toThrow(DevPkiError);
    }
  });
});
