import { describe, expect, it } from '@jest/globals';
import { formatRequestId, newLoginRequestId, parseRequestId } from './request-id.js';

describe('login request ids', () => {
  it('start with the millisecond timestamp and carry 128 random bits in decimal', () => {
    const now = 1_732_245_000_123;
    const id = newLoginRequestId(now);
    expect(id).toMatch(/^\d{52}$/);
    expect(id.startsWith(String(now))).toBe(true);
    const random = BigInt(id.slice(13));
    expect(random < 2n ** 128n).toBe(true);
    const ids = new Set(Array.from({ length: 200 }, () => newLoginRequestId(now)));
    expect(ids.size).toBe(200);
  });

  it('format as <prefix>requestId=<id> and parse back', () => {
    const id = newLoginRequestId(Date.now());
    const requestId = formatRequestId('http://localhost:8080/login?', id);
    expect(requestId).toBe(`http://localhost:8080/login?requestId=${id}`);
    expect(parseRequestId(requestId)).toEqual({ sitePrefix: 'http://localhost:8080/login?', id });
  });

  it('parse the last marker, so a prefix may contain one', () => {
    const id = newLoginRequestId(Date.now());
    const prefix = 'http://localhost:8080/?requestId=x&';
    expect(parseRequestId(formatRequestId(prefix, id))).toEqual({ sitePrefix: prefix, id });
  });

  it('refuse anything else', () => {
    expect(parseRequestId('http://localhost:8080/login?')).toBeUndefined();
    expect(parseRequestId('http://localhost:8080/?requestId=123')).toBeUndefined();
    expect(parseRequestId(`x?requestId=${'1'.repeat(52)}x`)).toBeUndefined();
    expect(parseRequestId(`x?requestId=${'1'.repeat(52)}`)).toEqual({
      sitePrefix: 'x?',
      id: '1'.repeat(52),
    });
  });
});
