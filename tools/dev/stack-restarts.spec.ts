/**
 * The dev chain and block-rpc as `npm start` runs them (startDevChain; the esbuild bundle with
 * the environment serviceEnv builds: SQLite and the chain state under one data folder), started
 * five times on that folder, with transactions each time: getTransactionStats counts them all.
 * Before the dev chain's state file was settled, block 0 changed at restarts, block 1 no longer
 * linked to it, and the index stopped counting (0 for every day).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newInternalTokens } from '@itp/crypto';
import { DEV_CHAIN } from '@itp/dev-chain';
import {
  AppProcess,
  INTERNAL_UPSTREAMS,
  UPSTREAMS,
  bundleServices,
  serviceEnv,
  type ServiceBundles,
  type StackAddresses,
} from '@itp/harness';
import { waitFor } from '@itp/testing/wait-for';
import { choosePorts } from './choose-ports.js';
import { startDevChain, type DevChain } from './dev-chain.js';
import { readDevSettings } from './dev-settings.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

interface Running {
  chain: DevChain;
  blockRpc: AppProcess;
  metricsUrl: string;
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** getTransactionStats through block-rpc's own /block. */
async function countedTransactions(blockRpcUrl: string, from: string, to: string) {
  const result = await rpc<{ resultCode: string; resultData: { count: number } }>(
    `${blockRpcUrl}/block`,
    'getTransactionStats',
    [{ from, to }],
  );
  if (result.resultCode !== '200')
    throw new Error(`getTransactionStats: ${JSON.stringify(result)}`);
  return result.resultData.count;
}

const day = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

describe('the dev chain and block-rpc restarted on one data folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'itp-dev-restarts-'));
  let bundles: ServiceBundles;
  let running: Running | undefined;

  beforeAll(async () => {
    bundles = await bundleServices(repoRoot, ['block-rpc']);
  }, 60_000);

  afterAll(async () => {
    await stop();
    bundles?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<Running> {
    const chain = await startDevChain(dataDir);
    const [port, metricsPort] = (await choosePorts(2)) as [number, number];
    const stack: StackAddresses = {
      chainUrl: chain.anvil.url,
      chainId: DEV_CHAIN.chainId,
      didRegistryAddress: chain.didRegistryAddress,
      // Only block-rpc runs here; the others' URLs are part of every service's environment.
      ports: Object.fromEntries(
        UPSTREAMS.map(({ name }) => [name, name === 'block-rpc' ? port : 9]),
      ),
      metricsPorts: { 'block-rpc': metricsPort },
      internalPorts: Object.fromEntries(INTERNAL_UPSTREAMS.map(({ name }) => [name, 9])),
      internalTokens: newInternalTokens(),
    };
    const settings = readDevSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'error' }, repoRoot);
    const env = serviceEnv(settings, stack, 'block-rpc', port);
    const blockRpc = new AppProcess({
      name: 'block-rpc',
      port,
      env,
      run: { bundle: bundles.entry('block-rpc') },
      output: 'inherit',
    });
    blockRpc.start();
    running = { chain, blockRpc, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
    await blockRpc.waitReady('/health/ready', Date.now() + 60_000);
    return running;
  }

  async function stop(): Promise<void> {
    if (!running) return;
    const { chain, blockRpc } = running;
    running = undefined;
    await blockRpc.stop(15_000);
    await chain.anvil.stop(); // writes the chain state, as the dev stack does last
  }

  async function send(chainUrl: string, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      const hash = await rpc<string>(chainUrl, 'eth_sendTransaction', [
        { from: DEV_CHAIN.devOnlyAccount0.address, to: BOB, value: '0x1' },
      ]);
      await waitFor(() => rpc(chainUrl, 'eth_getTransactionReceipt', [hash]), {
        what: `the receipt of ${hash}`,
        intervalMs: 10,
      });
    }
  }

  it('counts every transaction after four restarts', async () => {
    let sent = 1; // the DID registry's deployment at the first start
    let lastStartSecond = -1; // the second anvil started in last (at the latest)
    // Five starts: each restart after the first used to add a genesis block to the state file
    // and anvil served one of them at random, so a broken chain passed 1 time in 24.
    for (const [start_, count] of [
      [1, 3],
      [2, 2],
      [3, 4],
      [4, 1],
      [5, 2],
    ] as const) {
      // A restart in a later second than the start before: anvil's new genesis block then differs.
      await waitFor(() => Math.floor(Date.now() / 1000) > lastStartSecond, {
        what: 'a second later than the last start',
      });
      const { chain, blockRpc, metricsUrl } = await start();
      lastStartSecond = Math.floor(Date.now() / 1000);
      await send(chain.anvil.url, count);
      sent += count;
      const genesis = await rpc<{ timestamp: string }>(chain.anvil.url, 'eth_getBlockByNumber', [
        '0x0',
        false,
      ]);
      const from = day(Number(genesis.timestamp));
      const to = day(Date.now() / 1000 + 86_400);
      // The index catches up: poll until it counts them all (or give the last count).
      let counted = -1;
      await waitFor(
        async () => (counted = await countedTransactions(blockRpc.url, from, to)) === sent,
        { what: `block-rpc to count ${sent} transactions`, timeoutMs: 30_000, intervalMs: 50 },
      ).catch(() => undefined);
      expect({ start: start_, counted }).toEqual({ start: start_, counted: sent });
      const metrics = await (await fetch(metricsUrl)).text();
      expect(metrics).toMatch(/^block_index_stalled\{[^}]*\} 0$/m);
      expect(metrics).toMatch(/^block_index_resets_total\{[^}]*\} 0$/m);
      expect(metrics).toMatch(/^block_index_reorgs_total\{[^}]*\} 0$/m);
      await stop();
    }
  }, 180_000);
});
