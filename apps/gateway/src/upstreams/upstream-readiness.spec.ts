import { describe, expect, it } from '@jest/globals';
import { summarizeReport } from './upstream-readiness.js';

describe('summarizeReport', () => {
  it('lists the failing checks of a service-kit report', () => {
    const report = JSON.stringify({
      status: 'not ready',
      checks: { redis: 'error: timeout', database: 'ok', chain: 'error: no answer' },
      notReady: ['redis', 'chain'],
    });
    expect(summarizeReport(report)).toBe(
      'not ready: redis (error: timeout), chain (error: no answer)',
    );
  });

  it('falls back to the (shortened, one-line) text', () => {
    expect(summarizeReport('Service\n  Unavailable')).toBe('Service Unavailable');
    expect(summarizeReport('x'.repeat(600))).toHaveLength(501);
    expect(summarizeReport('')).toBe('no report');
    expect(summarizeReport('{"checks":{"a":"ok"}}')).toBe('{"checks":{"a":"ok"}}');
  });
});
