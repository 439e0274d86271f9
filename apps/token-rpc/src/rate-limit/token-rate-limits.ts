import type { TokenConfig } from '../config.js';
import type { RateLimit } from '@itp/stores';

const MINUTE = 60_000;

type RateLimitConfig = Pick<
  TokenConfig,
  | 'RATE_LIMIT_WALLET_PER_MINUTE'
  | 'RATE_LIMIT_TEMP_KEY_PER_MINUTE'
  | 'RATE_LIMIT_SIGN_DATA_PER_MINUTE'
  | 'RATE_LIMIT_READ_PER_MINUTE'
>;

/** The one counter of every read (a chain or database call each), on both endpoints. */
function readLimit(config: RateLimitConfig): RateLimit {
  return {
    name: 'read',
    what: 'read calls (getBalance, getTransactionStatus, ERC-20 reads)',
    max: config.RATE_LIMIT_READ_PER_MINUTE,
    windowMs: MINUTE,
  };
}

/** The per-client limits of `/token/erc20`: its reads share the read counter of `/token`. */
export function erc20RateLimits(config: RateLimitConfig): Record<string, RateLimit> {
  const read = readLimit(config);
  return Object.fromEntries(
    ['name', 'symbol', 'decimals', 'totalSupply', 'balanceOf', 'allowance'].map((m) => [m, read]),
  );
}

/**
 * The per-client limits of `/token`, by method name. createAddress and importAddress share one
 * counter (both make a wallet key: the expensive calls); net_getTempKey and signData have their
 * own; the reads (getBalance, getTransactionStatus) count against the read limit they share
 * with the ERC-20 reads. Transactions are not limited here (they are bounded by their tempKeys).
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
    getBalance: readLimit(config),
    getTransactionStatus: readLimit(config),
  };
}
