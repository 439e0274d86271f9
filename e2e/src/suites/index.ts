/**
 * Every suite, in the order the setups run them. A new feature adds its suite file here and is
 * then tested through the gateway against every setup (through-gateway.spec.ts: one instance of each service, then two replicas).
 */
import { accountSuite } from './account.suite.js';
import { authSuite } from './auth.suite.js';
import type { Suite } from './context.js';
import { didSuite } from './did.suite.js';
import { jsonRpcEnvelopeSuite } from './json-rpc-envelope.suite.js';
import { oid4vciSuite } from './oid4vci.suite.js';
import { oid4vpSuite } from './oid4vp.suite.js';
import { oidcSuite } from './oidc.suite.js';
import { presentationRequestsSuite } from './presentation-requests.suite.js';
import { revocationSuite } from './revocation.suite.js';
import { sdJwtIssuanceSuite } from './sd-jwt-issuance.suite.js';
import { sdJwtLoginSuite } from './sd-jwt-login.suite.js';
import { tokenSuite } from './token.suite.js';

export const SUITES: readonly Suite[] = [
  authSuite,
  didSuite,
  revocationSuite,
  oid4vpSuite,
  oid4vciSuite,
  presentationRequestsSuite,
  sdJwtIssuanceSuite,
  sdJwtLoginSuite,
  oidcSuite,
  accountSuite,
  tokenSuite,
  jsonRpcEnvelopeSuite,
];

export type { GatewayStack, Suite, SuiteContext } from './context.js';
