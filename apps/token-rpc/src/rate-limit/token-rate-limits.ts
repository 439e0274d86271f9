import type { TokenConfig } from '../config.js';
import type { RateLimit } from './rate-limiter.js';

const MINUTE = 60_000;

type RateLimitConfig = Pick<
  TokenConfig,
  | 'RATE_LIMIT_WALLET_PER_MINUTE'
  | 'RATE_LIMIT_TEMP_KEY_PER_MINUTE'
  | 'RATE_LIMIT_SIGN_DATA_PER_MINUTE'
>;

/**
 * The per-client limits of `/token`, by method name. createAddress and importAddress share one
 * counter (both make a wallet key: the expensive calls); net_getTempKey and signData have their
 * own. The other methods are not limited here (transactions are bounded by their tempKeys).
 */
export function tokenRateLimits(config: RateLimitConfig): Record<string, RateLimit> {
  const wallet: RateLimit = {
    name: 'wallet',
    what: 'createAddress/importAddress calls',
    max: config.RATE_LIMIT_WALLET_PER_MINUTE,
    windowMs: MINUTE,
  };
  return {
    createAddress: wallet,
    importAddress: wallet,
    net_getTempKey: {
      name: 'tempkey',
      what: 'net_getTempKey calls',
      max: config.RATE_LIMIT_TEMP_KEY_PER_MINUTE,
      windowMs: MINUTE,
    },
    signData: {
      name: 'signdata',
      what: 'signData calls',
      max: config.RATE_LIMIT_SIGN_DATA_PER_MINUTE,
      windowMs: MINUTE,
    },
  };
}
