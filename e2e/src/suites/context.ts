import type { TestPidIssuer } from '../test-pid-issuer.js';

/**
 * What a suite gets from its setup: a running stack behind one gateway, started by the spec that
 * runs the suites (one replica of each service, two replicas, …) before any test.
 */
export interface GatewayStack {
  gatewayUrl: string;
  chainUrl: string;
  /** The ERC-1056 DID registry on that chain: what a did:ethr resolver of a third party reads. */
  didRegistryAddress: string;
  databaseUrl: string;
  /** Every instance of each upstream service, by name, in index order (public URLs). */
  replicas: Record<string, ReadonlyArray<{ index: number; url: string }>>;
  /** A test PID provider whose CA the stack's auth-service trusts (TRUSTED_ISSUER_CERTIFICATES). */
  pidIssuer: TestPidIssuer;
}

export interface SuiteContext {
  /** The stack of the current setup (call it inside a test: it is started in beforeAll). */
  stack(): GatewayStack;
}

/** A suite registers its describe/it blocks against whatever stack the context gives. */
export type Suite = (context: SuiteContext) => void;
