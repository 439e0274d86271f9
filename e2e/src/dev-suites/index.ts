/**
 * The dev-mode flows, in the order e2e/src/dev-stack.spec.ts runs them against its one `npm start`
 * stack: a browser first (its phone app starts from an empty wallet), the age check of /demo/age
 * with a third-party EU wallet, the SDK, the CLI (whose last
 * test ends every token of the demo user), then the benchmark's smoke run (load: last).
 */
import { benchSmokeSuite } from './bench-smoke.suite.js';
import { cliSuite } from './cli.suite.js';
import { clientSuite } from './client.suite.js';
import type { DevSuite } from './context.js';
import { demoAgeSuite } from './demo-age.suite.js';
import { demoBrowserSuite } from './demo-browser.suite.js';

export const DEV_SUITES: readonly DevSuite[] = [
  demoBrowserSuite,
  demoAgeSuite,
  clientSuite,
  cliSuite,
  benchSmokeSuite,
];

export { npmStartSuite } from './npm-start.suite.js';
export type { DevSuite, DevSuiteContext } from './context.js';
