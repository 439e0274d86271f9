import { describe, expect, it } from '@jest/globals';
import { hasDotSegment } from './reject-dot-segments.js';

describe('hasDotSegment', () => {
  it('finds . and .. segments, also percent-encoded', () => {
    for (const path of ['/v2/auth/../did', '/v2/auth/./x', '/v2/auth/%2e%2E/did', '/a/%2e']) {
      expect(hasDotSegment(path)).toBe(true);
    }
  });

  it('leaves ordinary paths alone', () => {
    for (const path of ['/v2/auth/auth-user', '/v2/auth/.well-known/jwks.json', '/a/...', '/a.b']) {
      expect(hasDotSegment(path)).toBe(false);
    }
  });
});
