import { describe, expect, it } from '@jest/globals';
import { ChainRpcError, type ChainClient } from '@itp/chain';
import { createLogger } from '@itp/service-kit';
import { HeadTracker } from './head-tracker.js';

const logger = createLogger({ name: 'test', level: 'silent' });

/** A scripted node: answers eth_blockNumber and the "finalized" tag, and counts the calls. */
function fakeNode(state: { head: number; finalized: number | null | 'unsupported' }) {
  const calls: string[] = [];
  const chain: ChainClient = {
    async request<T>(method: string, params?: unknown[]): Promise<T> {
      calls.push(method === 'eth_getBlockByNumber' ? `block:${String(params?.[0])}` : method);
      if (method === 'eth_blockNumber') return `0x${state.head.toString(16)}` as T;
      if (method === 'eth_getBlockByNumber' && params?.[0] === 'finalized') {
        if (state.finalized === 'unsupported') {
          throw new ChainRpcError(method, -32602, 'unknown block tag');
        }
        return (
          state.finalized === null ? null : { number: `0x${state.finalized.toString(16)}` }
        ) as T;
      }
      throw new Error(`unexpected ${method}`);
    },
    chainId: async () => 1,
    ping: async () => undefined,
    close: async () => undefined,
  };
  return { chain, calls };
}

function tracker(chain: ChainClient, ttlMs: number, clock: { now: number }) {
  return new HeadTracker({ chain, ttlMs, finalityDepth: 10, logger, now: () => clock.now });
}

describe('HeadTracker', () => {
  it('reuses the head for the TTL and asks again after it', async () => {
    const { chain, calls } = fakeNode({ head: 100, finalized: null });
    const clock = { now: 0 };
    const head = tracker(chain, 1000, clock);
    expect(await head.latest()).toBe(100);
    clock.now = 999;
    expect(await head.latest()).toBe(100);
    expect(calls).toEqual(['eth_blockNumber']);
    clock.now = 1000;
    await head.latest();
    expect(calls).toEqual(['eth_blockNumber', 'eth_blockNumber']);
  });

  it('counts blocks at least finalityDepth below the head as final, for good', async () => {
    const state = { head: 100, finalized: null };
    const { chain, calls } = fakeNode(state);
    const head = tracker(chain, 0, { now: 0 });
    expect(await head.isFinal(90)).toBe(true);
    expect(head.isKnownFinal(90)).toBe(true);
    calls.length = 0;
    expect(await head.isFinal(50)).toBe(true);
    expect(calls).toEqual([]);
    expect(await head.isFinal(101)).toBe(false);
  });

  it('uses the node\'s "finalized" block for blocks within the depth', async () => {
    const state = { head: 100, finalized: 95 };
    const { chain } = fakeNode(state);
    const head = tracker(chain, 0, { now: 0 });
    expect(await head.isFinal(95)).toBe(true);
    expect(await head.isFinal(96)).toBe(false);
  });

  it('stops asking for "finalized" when the node does not know the tag', async () => {
    const { chain, calls } = fakeNode({ head: 100, finalized: 'unsupported' });
    const head = tracker(chain, 0, { now: 0 });
    expect(await head.isFinal(95)).toBe(false);
    expect(await head.isFinal(95)).toBe(false);
    expect(calls.filter((c) => c === 'block:finalized')).toHaveLength(1);
    expect(await head.isFinal(90)).toBe(true);
  });

  it('a node that answers null for "finalized" has none', async () => {
    const { chain, calls } = fakeNode({ head: 100, finalized: null });
    const head = tracker(chain, 0, { now: 0 });
    expect(await head.isFinal(99)).toBe(false);
    expect(await head.isFinal(99)).toBe(false);
    expect(calls.filter((c) => c === 'block:finalized')).toHaveLength(1);
  });

  it('never lowers the final floor when the head moves back', async () => {
    const state = { head: 100, finalized: null };
    const { chain } = fakeNode(state);
    const head = tracker(chain, 0, { now: 0 });
    expect(await head.isFinal(90)).toBe(true);
    state.head = 20;
    expect(await head.latest()).toBe(20);
    expect(head.isKnownFinal(90)).toBe(true);
  });
});
