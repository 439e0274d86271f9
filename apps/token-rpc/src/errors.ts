import {
  BadRequestError,
  BaseError,
  ConflictError,
  ForbiddenError,
  InternalError,
  NotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '@itp/errors';
import type { TransactionEntry } from './transactions/transaction-log.js';

/**
 * The business failures of the token API. Each is a BaseError: its class code becomes
 * `result.resultCode` of a JSON-RPC service error (or the REST `error.code` of the internal API)
 * and its message `resultMessage`. Messages say what happened and never carry a secret. The codes
 * and when each is answered are in the catalog, TOKEN_SERVICE_ERRORS (@itp/schemas), the one
 * table the OpenRPC document and the README come from.
 */

export class InvalidMnemonicError extends BadRequestError {
  constructor() {
    super('mnemonic is not a valid BIP-39 phrase (English word list, 12-24 words, valid checksum)');
  }
}

/** The chain would revert the transaction (estimateGas failed with a revert reason). */
export class TransactionRevertedError extends BadRequestError {}

/** Payment Required: the account cannot pay value + gas, or a token balance/allowance is too low. */
export class InsufficientFundsError extends BaseError {
  static override readonly code: string = '402';
  readonly status = 402;
}

export class BadHashKeyError extends UnauthorizedError {
  constructor() {
    super('hashKey does not match: it must be the hex SHA-256 of "<tempKey>|<secretKey>"');
  }
}

export class BadSignatureError extends UnauthorizedError {
  constructor(signingString: string) {
    super(
      `signature does not recover the from address: sign the SHA-256 of "${signingString}" with signData`,
    );
  }
}

/** register-did: the same answer for an unknown address and a wrong secretKey. */
export class WrongSecretError extends UnauthorizedError {
  constructor() {
    super('address and secretKey do not match a wallet address');
  }
}

export class UnknownAddressError extends NotFoundError {
  constructor(address: string) {
    super(`${address} is not a wallet address of this service (createAddress or importAddress it)`);
  }
}

export class UnknownContractError extends NotFoundError {
  constructor(address: string) {
    super(`no contract is deployed at ${address}`);
  }
}

export class UnknownTransactionError extends NotFoundError {
  constructor(transactionId: string) {
    super(`${transactionId} is not a transaction this service sent`);
  }
}

export class TempKeyRejectedError extends ConflictError {}

/**
 * The transaction log already holds a transaction for this request's tempKey (its unique
 * `temp_key_hash`): found when this request tried to record its own, before anything was sent.
 * Redis had let two requests claim one tempKey (it went back in time): the log decides, and
 * TempKeyRequests answers from the record (the original TransactionID, or "409").
 */
export class TempKeyAlreadySentError extends ConflictError {
  constructor(
    readonly recorded: { entry: TransactionEntry; fingerprint: string },
    options?: { cause?: unknown },
  ) {
    super(
      'tempKey was already used by another transaction: get a new one with net_getTempKey',
      options,
    );
  }
}

/** An identical retry gave up waiting for the first request with its tempKey. */
export class TempKeyInProgressError extends ConflictError {
  constructor() {
    super(
      'the first request with this tempKey is still being processed: retry the same request shortly to get its result',
    );
  }
}

/**
 * The answer of the first request with a tempKey, given again to an identical retry (docs/api.md §4):
 * the same resultCode and message, with a note that the tempKey is used.
 */
export class ReplayedResultError extends BaseError {
  readonly status: number;

  constructor(
    private readonly resultCode: string,
    message: string,
    private readonly exposeMessage: boolean,
  ) {
    super(
      `${message} (the answer of the first request with this tempKey, which is used: get a new ` +
        'tempKey to try again)',
    );
    const status = Number(resultCode);
    this.status = Number.isInteger(status) && status >= 400 && status < 600 ? status : 500;
  }

  override get code(): string {
    return this.resultCode;
  }

  override get expose(): boolean {
    return this.exposeMessage;
  }
}

/**
 * importAddress of a mnemonic whose keys are public (the dev chain's funding accounts): anyone can
 * sign for them, so the wallet never holds them, in any mode.
 */
export class PublicDevAccountError extends ForbiddenError {
  constructor() {
    super(
      'this mnemonic is the public test mnemonic of the dev chain (anvil/hardhat): its keys are ' +
        'known to everyone, so the wallet refuses to import it; use createAddress or your own mnemonic',
    );
  }
}

/** Internal API sign-jws for an address that was never registered for a DID (register-did). */
export class DidNotRegisteredError extends ForbiddenError {
  constructor(address: string) {
    super(`${address} is not registered for a DID (register-did): nothing is signed for it`);
  }
}

/** Internal API sign-jws: the signing input is not a JWS this service signs. */
export class JwsRefusedError extends BadRequestError {}

/** Too many calls of one kind from one client address in the current window (@itp/stores). */
export { RateLimitedError } from '@itp/stores';

/** The chain refused or failed a transaction for a reason that is not the client's input. */
export class ChainFailureError extends InternalError {
  /** "the chain refused the transaction…" is meant for the caller, although it is a 500. */
  override get expose(): boolean {
    return true;
  }
}

/**
 * The chain node failed while a transaction was being sent: @itp/chain's ChainUnavailableError
 * (503) with a message that names the transaction, which may or may not have been accepted.
 */
export class ChainNodeUnavailableError extends ServiceUnavailableError {}

/**
 * Dev mode: the funding of a new address failed (the dev funding account is empty and could not
 * be topped up, the chain refused or did not mine it, …). "503": the dev stack's problem, not the
 * request's; no address was created (its wallet row is removed), so the same call may be retried.
 */
export class DevFundingError extends ServiceUnavailableError {
  constructor(reason: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(`dev funding failed: ${reason}; no address was created, try again`, options);
  }
}
