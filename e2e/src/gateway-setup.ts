/**
 * The setups the suites run against: the whole product behind one gateway (development mode, the
 * apps as their bundles), with `replicas` instances of each upstream service, on the test run's
 * Redis, a database of its own and a chain of its own (new addresses are funded from its
 * account #0, so no other spec's transactions share its nonces), and a test PID provider whose
 * CA auth-service trusts (TRUSTED_ISSUER_CERTIFICATES: presentation requests, docs/api.md §14).
 */
// @peculiar/x509 (through @itp/x509: the test PID provider's certificates) needs it first.
import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalChain, startStack, type Stack, type UpstreamName } from '@itp/harness';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@itp/testing';
import { SETUP_ENV } from './setup-settings.js';
import type { GatewayStack } from './suites/context.js';
import { createTestPidIssuer } from './test-pid-issuer.js';

export interface GatewaySetup {
  stack: Stack & GatewayStack;
  stop(): Promise<void>;
}

export async function startGatewaySetup(
  replicas: Partial<Record<UpstreamName, number>>,
): Promise<GatewaySetup> {
  let chain: LocalChain | undefined;
  let db: TestDatabase | undefined;
  let stack: Stack | undefined;
  let dir: string | undefined;
  const stop = async (): Promise<void> => {
    await stack?.stop();
    await chain?.close();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  try {
    dir = await mkdtemp(join(tmpdir(), 'itp-e2e-issuers-'));
    const pidIssuer = await createTestPidIssuer(dir);
    chain = await LocalChain.start({ deployRegistry: true });
    db = await createTestDatabase();
    stack = await startStack({
      replicas,
      infra: {
        redisUrl: testRedisUrl(),
        databaseUrl: db.url,
        chainUrl: chain.url,
        didRegistryAddress: chain.didRegistryAddress,
      },
      env: {
        ...SETUP_ENV,
        'auth-service': {
          ...SETUP_ENV['auth-service'],
          TRUSTED_ISSUER_CERTIFICATES: pidIssuer.trustedIssuersFile,
        },
      },
      // PUBLIC_URL http://localhost:<port>, as npm start has it: the development PKI needs a DNS
      // name (the verifier's x509_san_dns client id, the SD-JWT VC issuer's certificate).
      publicHost: 'localhost',
      // Only what goes wrong: the suites provoke 4xx answers on purpose (warn level).
      logLevel: 'error',
    });
    return { stack: Object.assign(stack, { pidIssuer }), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
