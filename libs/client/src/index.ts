/**
 * @itp/client: the typed SDK of the identity and token platform (see README.md).
 *
 *   const itp = createClient({ baseUrl: 'http://127.0.0.1:8080' });
 *   const { token } = await itp.auth.login({ id: 'demo', password: 'demo-password' });
 *   const wallet = await itp.token.createWallet();
 *   await wallet.transfer({ to, amount: '1000' });
 */
export { createClient } from './client.js';
export { hashKeyOf, sha256Hex, signingHash } from './token/signing.js';
export {
  DEFAULT_LOGIN_POLL_INTERVAL_MS,
  DEFAULT_SLOW_DOWN_STEP_MS,
  LoginPollSchedule,
} from './auth/login-poll-schedule.js';
export { DEFAULT_TIMEOUT_MS } from './http/http-transport.js';
export { DEFAULT_SIWE_MESSAGE_TTL_MS } from './auth/siwe-message-for.js';
// The wait behind token.waitForTransaction, for callers with readers of their own (tests, caches).
export {
  DEFAULT_TRANSACTION_POLL_MS,
  DEFAULT_TRANSACTION_WAIT_MS,
  waitForTransaction,
  type TransactionReaders,
} from './token/wait-for-transaction.js';
export { ItpError, type ItpErrorOptions, type ItpErrorSource } from './errors/itp-error.js';
export * from './errors/error-classes.js';
export type * from './types.js';
