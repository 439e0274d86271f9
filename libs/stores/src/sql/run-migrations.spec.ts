import { describe, expect, it } from '@jest/globals';
import { runMigrations } from './run-migrations.js';

function capture(): { out: string[]; err: string[]; output: Parameters<typeof runMigrations>[3] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    output: {
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
    },
  };
}

const URL_WITH_PASSWORD = 'postgres://itp:s3cret-password@db.internal:5432/itp';

describe('runMigrations', () => {
  it('hands the URL to the migration and reports success (exit code 0)', async () => {
    const { out, err, output } = capture();
    const seen: string[] = [];
    const code = await runMigrations(
      'auth-service',
      URL_WITH_PASSWORD,
      async (url) => {
        seen.push(url);
      },
      output,
    );
    expect({ code, seen, out, err }).toEqual({
      code: 0,
      seen: [URL_WITH_PASSWORD],
      out: ['auth-service: migrations applied\n'],
      err: [],
    });
  });

  it('without a URL migrates nothing (exit code 2)', async () => {
    const { out, err, output } = capture();
    let ran = false;
    const code = await runMigrations(
      'token-rpc',
      undefined,
      async () => {
        ran = true;
      },
      output,
    );
    expect({ code, ran, out, err }).toEqual({
      code: 2,
      ran: false,
      out: [],
      err: ['token-rpc migrate: DATABASE_URL is required\n'],
    });
  });

  it('names the failing migration, never the URL (exit code 1)', async () => {
    const { out, err, output } = capture();
    const code = await runMigrations(
      'block-rpc',
      URL_WITH_PASSWORD,
      async () => {
        throw new Error('Migration "0002_index" (block_rpc_migrations) failed: syntax error');
      },
      output,
    );
    expect({ code, out, err }).toEqual({
      code: 1,
      out: [],
      err: [
        'block-rpc migrate: Migration "0002_index" (block_rpc_migrations) failed: syntax error\n',
      ],
    });
    expect(err.join('')).not.toContain('s3cret-password');
  });
});
