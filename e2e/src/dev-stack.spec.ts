/**
 * The dev-mode setup: ONE stack of `npm start` (through the harness: a clean environment, a free
 * port, the reaper) for the whole file, the per-minute limits lifted (the benchmark's load shares
 * it), a test PID provider's CA trusted by auth-service (TRUSTED_ISSUER_CERTIFICATES). Every
 * dev-mode flow runs against it in turn (DEV_SUITES: the /demo pages in chromium, the SDK, the
 * CLI, the benchmark's smoke run), then the checks of `npm start` itself, which stop it and start
 * it again on the same data folder.
 */
// @peculiar/x509 (through @itp/x509: the test PID provider's certificates) needs it first.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from '@jest/globals';
import { DEV_STACK_UNLIMITED_ENV, guard, startDevStack, type DevStack } from '@itp/harness';
import { DEV_SUITES, npmStartSuite, type DevSuiteContext } from './dev-suites/index.js';
import { createTestPidIssuer, type TestPidIssuer } from './test-pid-issuer.js';

describe('npm start: the dev-mode flows on one dev stack', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'itp-dev-'));
  // Removed by afterAll; by the reaper should this worker be killed first.
  const folder = guard({ label: 'dev stack data folder', dir: dataDir });
  let stack: DevStack | undefined;
  let pidIssuer: TestPidIssuer | undefined;

  beforeAll(async () => {
    pidIssuer = await createTestPidIssuer(dataDir);
    stack = await startDevStack({
      dataDir,
      env: {
        ...DEV_STACK_UNLIMITED_ENV,
        TRUSTED_ISSUER_CERTIFICATES: pidIssuer.trustedIssuersFile,
      },
      readyTimeoutMs: 120_000,
    });
  }, 150_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    folder.release();
  }, 60_000);

  const context: DevSuiteContext = {
    stack: () => stack as DevStack,
    pidIssuer: () => pidIssuer as TestPidIssuer,
  };
  for (const suite of DEV_SUITES) suite(context);
  npmStartSuite(context, dataDir);
});
