import {
  BadRequestError,
  BaseError,
  ConflictError,
  InternalError,
  NotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '@itp/errors';

/**
 * The business failures of the token API. Each is a BaseError: its class code becomes
 * `result.resultCode` of a JSON-RPC service error (or the REST `error.code` of the internal API)
 * and its message `resultMessage`. Messages say what happened and never carry a secret.
 *
 * | code | class                                  | when                                          |
 * |------|----------------------------------------|-----------------------------------------------|
 * | 400  | InvalidMnemonicError, TransactionRevertedError | bad business input             |
 * | 401  | BadHashKeyError, BadSignatureError, WrongSecretError | credentials do not match          |
 * | 402  | InsufficientFundsError                 | balance / token balance / allowance too low    |
 * | 404  | UnknownAddressError, UnknownContractError | not a wallet address / no contract there    |
 * | 409  | TempKeyRejectedError                   | tempKey unknown, expired, used or bound elsewhere |
 * | 500  | ChainFailureError, InternalError          | the chain refused the transaction; internal   |
 * | 503  | ChainNodeUnavailableError              | the chain node cannot be reached or timed out  |
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

/** verify-secret: the same answer for an unknown address and a wrong secretKey. */
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

export class TempKeyRejectedError extends ConflictError {}

/** The chain refused or failed a transaction for a reason that is not the client's input. */
export class ChainFailureError extends InternalError {}

/**
 * The chain node cannot be reached or does not answer (connection refused, timeout, not JSON-RPC):
 * @itp/chain's ChainUnavailableError as the token API reports it, with its own code "503" so that
 * clients can tell it from a refused transaction or an internal failure ("500").
 */
export class ChainNodeUnavailableError extends ServiceUnavailableError {}
