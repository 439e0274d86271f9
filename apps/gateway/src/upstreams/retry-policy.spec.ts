import { describe, expect, it } from '@jest/globals';
import { mayRetry } from './retry-policy.js';

describe('mayRetry', () => {
  it('retries every method when nothing can have been sent (refused, name not resolved)', () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE']) {
      for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']) {
        expect(mayRetry(method, code)).toBe(true);
      }
    }
  });

  it('retries a broken connection only for idempotent reads (GET, HEAD)', () => {
    for (const code of ['ECONNRESET', 'EPIPE', 'ECONNABORTED']) {
      expect(mayRetry('GET', code)).toBe(true);
      expect(mayRetry('head', code)).toBe(true);
      expect(mayRetry('POST', code)).toBe(false);
      expect(mayRetry('DELETE', code)).toBe(false);
    }
  });

  it('never retries timeouts or unknown failures', () => {
    for (const method of ['GET', 'POST']) {
      expect(mayRetry(method, 'ETIMEDOUT')).toBe(false);
      expect(mayRetry(method, 'ERR_SOMETHING')).toBe(false);
      expect(mayRetry(method, undefined)).toBe(false);
    }
  });
});
