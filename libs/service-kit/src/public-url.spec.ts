import { describe, expect, it } from '@jest/globals';
import { insecurePublicUrl } from './public-url.js';

describe('insecurePublicUrl: https outside development, unless loopback', () => {
  it.each([
    'https://api.example.com',
    'http://localhost:8080',
    'http://itp.localhost',
    'http://127.0.0.1:8080',
    'http://127.10.0.1',
    'http://[::1]:8080',
  ])('accepts %s in production', (url) => {
    expect(insecurePublicUrl('production', url)).toBeUndefined();
  });

  it.each(['http://api.example.com', 'http://10.0.0.5:8080', 'http://localhost.example.com'])(
    'refuses %s in production and test, accepts it in development',
    (url) => {
      expect(insecurePublicUrl('production', url)).toMatch(/must be an https URL/);
      expect(insecurePublicUrl('test', url)).toMatch(/APP_ENV=test/);
      expect(insecurePublicUrl('development', url)).toBeUndefined();
    },
  );

  it('has nothing to say without a PUBLIC_URL', () => {
    expect(insecurePublicUrl('production', undefined)).toBeUndefined();
  });
});
