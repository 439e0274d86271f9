import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { REDACT_PATHS, prettyStream } from './logger.js';

describe('LOG_PRETTY output', () => {
  it('writes one readable line per entry, with the same redaction', () => {
    const out: string[] = [];
    const logger = pino(
      {
        level: 'info',
        base: { service: 'demo' },
        redact: { paths: REDACT_PATHS, censor: '[redacted]' },
        timestamp: pino.stdTimeFunctions.isoTime,
      },
      prettyStream({ write: (text: string) => out.push(text) }),
    );
    logger.info({ body: { secretKey: 's3cret' }, n: 1 }, 'hello');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\S+ INFO demo: hello \{.*"n":1.*\}\n$/);
    expect(out[0]).toContain('[redacted]');
    expect(out[0]).not.toContain('s3cret');
  });
});
