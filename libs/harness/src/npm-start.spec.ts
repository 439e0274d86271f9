import { existsSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { startDevStack } from './npm-start.js';

// The ready path is exercised by every spec that uses the helper (libs/client/src/client.e2e.spec.ts,
// apps/gateway/src/demo/demo.browser.spec.ts); this one checks the failure path without a whole stack.
describe('startDevStack', () => {
  it('rejects with what the stack said when it ends before ready, and cleans up', async () => {
    const failure = await startDevStack({
      env: { DATABASE_URL: 'not-a-database-url' },
      readyTimeoutMs: 60_000,
    }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    const [, dataDir] =
      /^npm start did not get ready \(data folder (\S+), removed\); it said:\n/.exec(message) ?? [];
    expect(dataDir).toMatch(/itp-stack-/);
    expect(existsSync(dataDir as string)).toBe(false);
    expect(message).toContain('DATABASE_URL');
  }, 90_000);
});
