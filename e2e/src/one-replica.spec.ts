import { afterAll, beforeAll, describe } from '@jest/globals';
import { startGatewaySetup, type GatewaySetup } from './gateway-setup.js';
import { SUITES } from './suites/index.js';

describe('through the gateway: one instance of each service', () => {
  let setup: GatewaySetup;
  beforeAll(async () => {
    setup = await startGatewaySetup({});
  }, 180_000);
  afterAll(async () => {
    await setup?.stop();
  }, 60_000);

  for (const suite of SUITES) suite({ stack: () => setup.stack });
});
