import { describe, expect, it } from '@jest/globals';
import { parseArgs } from 'node:util';
import { ConfigError } from './config.js';
import { reportCliError, UsageError } from './cli-errors.js';

function report(err: unknown): { code: number; text: string } {
  let text = '';
  const code = reportCliError(err, { write: (chunk: string) => (text += chunk) }, 'USAGE\n');
  return { code, text };
}

describe('reportCliError', () => {
  it('usage errors (ours and parseArgs) print the usage and exit 2', () => {
    expect(report(new UsageError('users add needs --name'))).toEqual({
      code: 2,
      text: 'error: users add needs --name\n\nUSAGE\n',
    });
    let parseError: unknown;
    try {
      parseArgs({ args: ['--nope'], options: {}, strict: true });
    } catch (err) {
      parseError = err;
    }
    const parsed = report(parseError);
    expect(parsed.code).toBe(2);
    expect(parsed.text).toMatch(/^error: .*--nope.*\n\nUSAGE\n$/s);
  });

  it('configuration errors exit 2 without the usage; anything else exits 1 with its message only', () => {
    const config = report(new ConfigError(['DATABASE_URL: required when APP_ENV=production']));
    expect(config.code).toBe(2);
    expect(config.text).toContain('DATABASE_URL: required');
    expect(config.text).not.toContain('USAGE');
    const failed = report(new Error('unknown user alice'));
    expect(failed).toEqual({ code: 1, text: 'error: unknown user alice\n' });
    expect(report('a string')).toEqual({ code: 1, text: 'error: a string\n' });
  });
});
