import type { ChainClient } from '@itp/chain';

export interface ChainCall {
  method: string;
  params: readonly unknown[];
}

/** A ChainClient that records every request it passes on to the real one (a spy for tests). */
export interface CountingChain extends ChainClient {
  readonly calls: ChainCall[];
  /** Requests of `method` whose first param equals `firstParam` (any first param when omitted). */
  count(method: string, firstParam?: unknown): number;
}

export function countingChain(inner: ChainClient): CountingChain {
  const calls: ChainCall[] = [];
  return {
    calls,
    count: (method, ...rest) =>
      calls.filter(
        (call) => call.method === method && (rest.length === 0 || call.params[0] === rest[0]),
      ).length,
    request<T>(method: string, params: unknown[] = []): Promise<T> {
      calls.push({ method, params });
      return inner.request<T>(method, params);
    },
    chainId: () => inner.chainId(),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
}
