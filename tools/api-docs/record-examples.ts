/**
 * Records the examples of the API documents from real answers:
 *   npx tsx tools/api-docs/record-examples.ts
 * starts a private dev stack (`npm start` on a free port, fresh temporary data folder), calls
 * every REST endpoint (the OpenID4VP ones through the repository's wallet, `@itp/wallet`)
 * and every /token and /token/erc20 method through the gateway, replaces the
 * secrets by placeholders (recorder/placeholders.ts), and writes
 *   libs/schemas/src/openapi/rest-examples.json   (OpenAPI: request, response and error examples)
 *   apps/token-rpc/src/rpc/recorded-examples.json (OpenRPC examples of /token and /token/erc20)
 * Commit both. CI never needs the stack for them: rest-examples.spec.ts and examples.spec.ts
 * check that the committed examples still fit the current schemas.
 *
 * The stack runs with PUBLIC_URL=http://localhost:8080 (the address `npm start` has by default),
 * not its own free port: issued VCs name their status list under PUBLIC_URL inside their signed
 * JWT, so the URL cannot be rewritten afterwards, and a fixed one keeps recordings comparable.
 * Nothing calls that address (the recorder takes the list's path and asks this stack); it must
 * not be the dev default http://127.0.0.1:<port>, which the served API document may not name.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { startDevStack } from '@itp/harness';
import type { RestExamplesFile } from '@itp/schemas';
import { waitFor } from '@itp/testing/wait-for';
import { DEMO_CLIENT, DEMO_USER } from '@itp/auth-service/demo-data';
import type { RpcExamplesFile } from '@itp/token-rpc/rpc-examples';
import type { DidChain } from '@itp/wallet';
import { ApiClient } from './recorder/api-client.js';
import { addUser } from './recorder/operator-cli.js';
import { assertNoSecrets, redactSecrets } from './recorder/placeholders.js';
import { recordRestExamples } from './recorder/rest-flow.js';
import { recordTokenExamples } from './recorder/token-flow.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const REST_FILE = 'libs/schemas/src/openapi/rest-examples.json';
const RPC_FILE = 'apps/token-rpc/src/rpc/recorded-examples.json';
const PUBLIC_URL = 'http://localhost:8080';
const COMMENT =
  'Recorded from a dev stack by tools/api-docs/record-examples.ts (secrets replaced by ' +
  'placeholders); do not edit by hand, record again.';

async function write(path: string, value: object, secrets: string[]): Promise<void> {
  const file = `${repoRoot}${path}`;
  const options = (await prettier.resolveConfig(file)) ?? {};
  const text = await prettier.format(JSON.stringify(value), { ...options, filepath: file });
  assertNoSecrets(text, secrets, path);
  if (text.includes('127.0.0.1')) throw new Error(`${path} names 127.0.0.1; not written`);
  writeFileSync(file, text);
  console.log(`[record-examples] wrote ${path}`);
}

/**
 * The dev chain `npm start` prints in its banner (the OpenID4VP wallet resolves DIDs there); the
 * banner follows the gateway's readiness, so it may take a moment.
 */
async function devChain(output: () => string): Promise<DidChain> {
  const line = /Dev chain\s+(\S+) \(anvil, chain id (\d+), DID registry (0x[0-9a-fA-F]{40})\)/;
  const found = await waitFor(() => line.exec(output()), {
    what: 'the "Dev chain" line of npm start\'s banner',
    timeoutMs: 15_000,
    intervalMs: 250,
  });
  return {
    rpcUrl: found[1] as string,
    chainId: Number(found[2]),
    registry: found[3] as string,
  };
}

const stack = await startDevStack({ readyTimeoutMs: 120_000, env: { PUBLIC_URL } });
console.log(`[record-examples] dev stack ready at ${stack.url}`);
try {
  const chain = await devChain(() => stack.output());
  const walletSecrets: string[] = [];
  const client = new ApiClient(stack.url);
  const recordedAt = new Date().toISOString();
  const otherUser = await addUser(stack.dataDir, 'example-other-user', 'Other User');
  const apis = await recordTokenExamples(client);
  const endpoints = await recordRestExamples(client, {
    otherUser,
    publicUrl: PUBLIC_URL,
    chain,
    secrets: walletSecrets,
  });
  const rpc = redactSecrets<RpcExamplesFile>({ $comment: COMMENT, recordedAt, apis });
  const rest = redactSecrets<RestExamplesFile>({ $comment: COMMENT, recordedAt, endpoints });
  const secrets = [
    ...rpc.replaced,
    ...rest.replaced,
    DEMO_USER.password,
    DEMO_CLIENT.secret,
    otherUser.password,
    ...walletSecrets,
  ];
  await write(RPC_FILE, rpc.value, secrets);
  await write(REST_FILE, rest.value, secrets);
} catch (err) {
  console.error(`[record-examples] failed: ${err instanceof Error ? err.message : String(err)}`);
  console.error(`[record-examples] the stack said:\n${stack.output()}`);
  process.exitCode = 1;
} finally {
  await stack.stop();
}
