import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, baseConfigShape, loadConfig } from './config.js';

const schema = z.object({
  ...baseConfigShape,
  PORT: baseConfigShape.PORT.default(8080),
  EXTRA: z.string().url(),
});

describe('loadConfig', () => {
  it('applies defaults and coerces numbers and booleans', () => {
    const config = loadConfig(schema, {
      EXTRA: 'http://x',
      LOG_PRETTY: 'yes',
      BODY_LIMIT_BYTES: '2048',
    });
    expect(config.APP_ENV).toBe('production');
    expect(config.PORT).toBe(8080);
    expect(config.LOG_PRETTY).toBe(true);
    expect(config.BODY_LIMIT_BYTES).toBe(2048);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig(schema, { EXTRA: 'http://x', PORT: '' }).PORT).toBe(8080);
  });

  it('reports every problem at once', () => {
    try {
      loadConfig(schema, { PORT: 'abc', APP_ENV: 'staging' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const issues = (err as ConfigError).issues.join('\n');
      expect(issues).toMatch(/PORT/);
      expect(issues).toMatch(/APP_ENV/);
      expect(issues).toMatch(/EXTRA/);
    }
  });
});
