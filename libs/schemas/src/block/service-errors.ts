import { CHAIN_UNAVAILABLE, type ServiceErrorDoc } from '../errors/service-errors.js';

/** The block API's error catalog (`result.resultCode`, docs/api.md §5); protocol errors: §6. */
export const BLOCK_SERVICE_ERRORS = {
  notFound: { resultCode: '404', when: 'the block, transaction or receipt does not exist' },
  rateLimited: {
    resultCode: '429',
    when:
      'too many calls from this client address in the current minute (`RATE_LIMIT_READ_PER_MINUTE`; ' +
      'every call of a batch counts); resultMessage says in how many seconds to retry',
  },
  chain: {
    resultCode: '500',
    when: 'the chain node failed or sent a malformed answer; the database failed',
  },
  chainUnavailable: CHAIN_UNAVAILABLE,
} satisfies Record<string, ServiceErrorDoc>;

/** The service errors of every method that reaches the chain node (every call is counted). */
export const BLOCK_CHAIN_ERRORS: ServiceErrorDoc[] = [
  BLOCK_SERVICE_ERRORS.rateLimited,
  BLOCK_SERVICE_ERRORS.chain,
  BLOCK_SERVICE_ERRORS.chainUnavailable,
];
