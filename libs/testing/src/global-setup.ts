/**
 * jest's global setup and teardown: Redis, PostgreSQL and a dev chain for the whole run, resolved
 * once by @itp/harness (provisionInfra) and handed to the test workers as ITP_TEST_* variables.
 */
import { provisionInfra, type Infra } from '@itp/harness';
import { TEST_ENV } from './test-infra.js';

declare global {
  var __ITP_INFRA__: Infra | undefined;
}

export async function setup(): Promise<void> {
  const infra = await provisionInfra();
  globalThis.__ITP_INFRA__ = infra;
  process.env[TEST_ENV.redis] = infra.redis.url;
  process.env[TEST_ENV.database] = infra.database.url;
  process.env[TEST_ENV.chain] = infra.chain.url;
}

export async function teardown(): Promise<void> {
  const infra = globalThis.__ITP_INFRA__;
  if (!infra) return;
  await Promise.all([infra.redis.stop(), infra.database.stop(), infra.chain.stop()]);
}
