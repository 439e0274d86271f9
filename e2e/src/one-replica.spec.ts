import { afterAll, beforeAll, describe } from '@jest/globals';
import { startGatewaySetup, type GatewaySetup } from './gateway-setup.js';
import { demoOid4vpBrowserSuite } from './suites/demo-oid4vp-browser.suite.js';
import { SUITES } from './suites/index.js';

describe('through the gateway: one instance of each service', () => {
  let setup: GatewaySetup;
  beforeAll(async () => {
    setup = await startGatewaySetup({});
  }, 180_000);
  afterAll(async () => {
    await setup?.stop();
  }, 60_000);

  const context = { stack: () => setup.stack };
  for (const suite of SUITES) suite(context);
  // The demo web site in a browser: one setup is enough (no replica changes what a page shows).
  demoOid4vpBrowserSuite(context);
});
