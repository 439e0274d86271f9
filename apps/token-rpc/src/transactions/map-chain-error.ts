import type { Interface } from 'ethers';
import { ChainRpcError, ChainUnavailableError } from '@itp/chain';
import { isBaseError, type BaseError } from '@itp/errors';
import {
  ChainFailureError,
  ChainNodeUnavailableError,
  InsufficientFundsError,
  TransactionRevertedError,
} from '../errors.js';

const INSUFFICIENT_FUNDS = /insufficient funds|insufficient balance|exceeds balance/i;
const NONCE_CONFLICT =
  /nonce too low|nonce too high|already known|replacement transaction underpriced|known transaction/i;
const REVERTED = /revert/i;

/** Hex revert data of a node error (`error.data`, or `error.data.data` on some nodes). */
export function revertDataOf(data: unknown): string | null {
  if (typeof data === 'string' && /^0x[0-9a-fA-F]*$/.test(data) && data.length >= 10) return data;
  if (data !== null && typeof data === 'object')
    return revertDataOf((data as { data?: unknown }).data);
  return null;
}

/** A decoded revert as the client should read it, or null when the data is not understood. */
export function describeRevert(iface: Interface, data: string): BaseError | null {
  let parsed;
  try {
    parsed = iface.parseError(data);
  } catch {
    return null;
  }
  if (!parsed) return null;
  const a = parsed.args;
  switch (parsed.name) {
    case 'ERC20InsufficientBalance':
      return new InsufficientFundsError(
        `token balance of ${String(a[0])} is ${String(a[1])}, below the amount ${String(a[2])}`,
      );
    case 'ERC20InsufficientAllowance':
      return new InsufficientFundsError(
        `allowance of spender ${String(a[0])} is ${String(a[1])}, below the amount ${String(a[2])}`,
      );
    case 'ERC20InvalidReceiver':
      return new TransactionRevertedError(`the token contract refuses receiver ${String(a[0])}`);
    case 'ERC20InvalidSender':
      return new TransactionRevertedError(`the token contract refuses sender ${String(a[0])}`);
    case 'ERC20InvalidSpender':
      return new TransactionRevertedError(`the token contract refuses spender ${String(a[0])}`);
    case 'ERC20InvalidApprover':
      return new TransactionRevertedError(`the token contract refuses approver ${String(a[0])}`);
    case 'Error':
      return new TransactionRevertedError(`the transaction would revert: ${String(a[0])}`);
    case 'Panic':
      return new TransactionRevertedError(
        `the transaction would revert (panic code ${String(a[0])})`,
      );
    default:
      return new TransactionRevertedError(`the transaction would revert (${parsed.name})`);
  }
}

/**
 * Maps a failure of a chain call made for a transaction to what the client is told:
 * - insufficient funds (value + gas, or an ERC-20 balance/allowance revert) → 402;
 * - a revert (estimateGas) → 400 with the decoded reason;
 * - a nonce conflict → 500 (the nonce manager resynchronises; the client may retry);
 * - node unreachable or timed out → 503 ChainNodeUnavailableError; any other node error → 500.
 * Node messages are passed on (they carry no secret); URLs never appear (ChainClient drops them).
 */
export function mapChainError(err: unknown, iface: Interface): BaseError {
  if (err instanceof ChainUnavailableError) {
    return new ChainNodeUnavailableError(err.message, {
      cause: err,
      retryAfterSeconds: err.retryAfterSeconds,
    });
  }
  if (err instanceof ChainRpcError) {
    const data = revertDataOf(err.rpcData);
    const decoded = data ? describeRevert(iface, data) : null;
    if (decoded) return decoded;
    if (INSUFFICIENT_FUNDS.test(err.rpcMessage)) {
      return new InsufficientFundsError(
        `the sending address cannot pay amount + gas (${err.rpcMessage})`,
      );
    }
    if (NONCE_CONFLICT.test(err.rpcMessage)) {
      return new ChainFailureError(
        `nonce conflict (${err.rpcMessage}): the next request resynchronises with the chain; retry`,
      );
    }
    if (err.rpcCode === 3 || REVERTED.test(err.rpcMessage)) {
      return new TransactionRevertedError(`the transaction would revert: ${err.rpcMessage}`);
    }
    return new ChainFailureError(`the chain refused the transaction: ${err.rpcMessage}`);
  }
  if (isBaseError(err)) return err;
  return new ChainFailureError('unexpected failure while talking to the chain', { cause: err });
}
