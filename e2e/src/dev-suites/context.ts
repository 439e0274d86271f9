/**
 * What a dev-mode suite gets: the stack of `npm start` (development mode, the demo user and the
 * demo relying party seeded, new addresses funded from the dev accounts), started once by
 * e2e/src/dev-stack.spec.ts before any test and shared by every suite of DEV_SUITES in turn.
 */
import type { DevStack } from '@itp/harness';
import type { TestPidIssuer } from '../test-pid-issuer.js';

export interface DevSuiteContext {
  /** The running dev stack (call it inside a test: it is started in beforeAll). */
  stack(): DevStack;
  /** A test PID provider whose CA the stack's auth-service trusts (TRUSTED_ISSUER_CERTIFICATES). */
  pidIssuer(): TestPidIssuer;
}

/** A suite registers its describe/it blocks against whatever dev stack the context gives. */
export type DevSuite = (context: DevSuiteContext) => void;
