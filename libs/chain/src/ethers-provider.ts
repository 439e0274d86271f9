import { FetchRequest, JsonRpcProvider, Network } from 'ethers';
import { parseRpcUrl } from './rpc-url.js';

export interface EthersProviderOptions {
  /** Per-request timeout. Default 10 000 ms (ethers' own default is 5 minutes). */
  timeoutMs?: number;
}

/**
 * The ethers provider for services that sign and send transactions. A static network (no chain
 * id probing), no batching and no result cache: with ethers' default cache two quick writes from
 * one account reuse a nonce (see docs/adr/0003-dev-chain.md). Call `destroy()` when done.
 */
export function createEthersProvider(
  rpcUrl: string,
  chainId: number,
  options: EthersProviderOptions = {},
): JsonRpcProvider {
  const { url, authorization, username, password } = parseRpcUrl(rpcUrl);
  const request = new FetchRequest(url);
  request.timeout = options.timeoutMs ?? 10_000;
  if (authorization) {
    request.setCredentials(username, password);
    // The operator put the credentials into the URL; honour them on plain http too.
    request.allowInsecureAuthentication = true;
  }
  return new JsonRpcProvider(request, Network.from(chainId), {
    staticNetwork: true,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
}
