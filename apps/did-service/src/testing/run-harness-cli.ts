import { testChainUrl } from '@itp/testing';
import type { DidHarness } from './did-harness.js';
import { runCliCaptured } from './run-cli-captured.js';

/**
 * Test helper: the operator CLI (runCliCaptured) against the harness' database, the dev chain and
 * the harness' DID registry; `stdin` is what it reads from its standard input.
 */
export function runHarnessCli(
  h: DidHarness,
  args: string[],
  stdin?: string,
): Promise<{ code: number; out: string; err: string }> {
  return runCliCaptured(
    args,
    {
      DATABASE_URL: h.database.url,
      ETH_RPC_URL: testChainUrl(),
      DID_REGISTRY_ADDRESS: h.config.DID_REGISTRY_ADDRESS ?? '',
    },
    stdin,
  );
}
