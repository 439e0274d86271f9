import { startAnvil, type AnvilOptions, type RunningAnvil } from '@itp/dev-chain';
import { freePort, waitFor } from '@itp/testing';

/** anvil's first two unlocked accounts. */
export const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
export const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

/**
 * An own anvil for a test file that the test scripts: a clean chain it can mine, warp (next block
 * timestamp) and reorganise, with ALICE → BOB transfers mined one per block.
 */
export interface TestChain {
  url: string;
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Mines `count` empty blocks. */
  mine(count: number): Promise<void>;
  head(): Promise<number>;
  /**
   * Sends `value` wei from ALICE to BOB and waits until it is mined (auto-mine: in its own block,
   * at `timestampSeconds` when given); returns the hash.
   */
  send(value?: bigint, timestampSeconds?: number): Promise<string>;
  /** Resolves once the transaction has a receipt. */
  waitMined(hash: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a private anvil (on a free port unless `options` name one: a test may stop it and start
 * another chain at the same URL) and the client that scripts it.
 */
export async function startScriptableTestChain(options: AnvilOptions = {}): Promise<TestChain> {
  const anvil: RunningAnvil = await startAnvil({ port: await freePort(), ...options });
  let id = 0;
  const call = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  // anvil answers eth_sendTransaction before its auto-mined block exists: wait for the receipt,
  // or a following evm_setNextBlockTimestamp would apply to that block instead of the next one.
  const waitMined = async (hash: string): Promise<void> => {
    await waitFor(async () => (await call('eth_getTransactionReceipt', [hash])) !== null, {
      what: `transaction ${hash} to be mined`,
      timeoutMs: 5_000,
      intervalMs: 5,
    });
  };
  return {
    url: anvil.url,
    waitMined,
    call,
    mine: async (count) => void (await call('anvil_mine', [`0x${count.toString(16)}`])),
    head: async () => Number(await call<string>('eth_blockNumber')),
    async send(value = 1n, timestampSeconds) {
      if (timestampSeconds !== undefined)
        await call('evm_setNextBlockTimestamp', [timestampSeconds]);
      const hash = await call<string>('eth_sendTransaction', [
        { from: ALICE, to: BOB, value: `0x${value.toString(16)}` },
      ]);
      await waitMined(hash);
      return hash;
    },
    stop: () => anvil.stop(),
  };
}
