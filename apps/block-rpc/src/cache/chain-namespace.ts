import type { ChainClient } from '@itp/chain';
import { nodeFields } from '../chain/node-fields.js';

/**
 * A key prefix that names the chain the node serves: `g<first 16 hex digits of the genesis hash>:`.
 * Shared cache entries of another chain (or of a dev chain that was started afresh) then never
 * answer for this one. Asked once; a failed ask is retried on the next call.
 */
export function chainNamespace(chain: ChainClient): () => Promise<string> {
  let cached: Promise<string> | undefined;
  return () => {
    if (!cached) {
      const asked = chain
        .request('eth_getBlockByNumber', ['0x0', false])
        .then((raw) => `g${nodeFields(raw, 'genesis block').req('hash', 'hash').slice(2, 18)}:`);
      cached = asked;
      asked.catch(() => {
        if (cached === asked) cached = undefined;
      });
    }
    return cached;
  };
}
