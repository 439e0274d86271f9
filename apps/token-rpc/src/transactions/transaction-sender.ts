import { Transaction, getCreateAddress, toQuantity, type Interface } from 'ethers';
import {
  ChainCircuitOpenError,
  ChainRpcError,
  ChainUnavailableError,
  parseQuantity,
  type ChainClient,
} from '@itp/chain';
import { InternalError, ServiceUnavailableError } from '@itp/errors';
import type { Logger } from '@itp/service-kit';
import { isStoreUnavailable } from '@itp/stores';
import { ChainNodeUnavailableError, TempKeyAlreadySentError } from '../errors.js';
import type { AuthorizedWallet } from '../wallet/wallet-service.js';
import { eip1559Fees, gasLimitFor, type FeeFields } from './fees.js';
import { mapChainError } from './map-chain-error.js';
import type { NonceManager } from './nonce-manager.js';
import type { SendOutcome, TransactionKind, TransactionLog } from './transaction-log.js';

export interface OutgoingTransaction {
  kind: TransactionKind;
  wallet: AuthorizedWallet;
  /** Recipient or called contract; null deploys `data` as a contract. */
  to: string | null;
  value: bigint;
  data: string;
  /**
   * The amount of the request as the record shows it (token base units for the erc20 methods,
   * the initial supply for createToken); default: `value` in wei.
   */
  amount?: bigint;
  requestId?: string;
}

export interface SentTransaction {
  hash: string;
  nonce: number;
  from: string;
  /** Address of the deployed contract (to = null), else null. */
  contractAddress: string | null;
}

export interface TransactionSenderOptions {
  chain: ChainClient;
  nonces: NonceManager;
  log: TransactionLog;
  logger: Logger;
  /** Decodes revert data (OpenZeppelin ERC-20 custom errors, Error(string), Panic). */
  errorInterface: Interface;
  /** Added to a contract call's gas estimate (default 20 %). */
  gasMarginPercent?: number;
  /** Tip when the node has no eth_maxPriorityFeePerGas (default 1 gwei). */
  fallbackPriorityFeeWei?: bigint;
  now?: () => number;
}

interface LatestBlock {
  baseFeePerGas?: string | null;
}

/**
 * Builds, signs, records and sends transactions: gas estimated (a revert or a lack of funds is
 * reported before anything is signed), EIP-1559 fees where the chain has a base fee, the nonce
 * from the NonceManager, the record written before the broadcast, and the node's answer mapped
 * to a clear error. A transaction is broadcast at most once: nothing is ever re-sent.
 */
export class TransactionSender {
  private readonly now: () => number;

  constructor(private readonly options: TransactionSenderOptions) {
    this.now = options.now ?? Date.now;
  }

  async send(tx: OutgoingTransaction): Promise<SentTransaction> {
    const { chain, nonces } = this.options;
    // Gas and fees are asked for while the nonce lease is taken and the nonce read: the three
    // chain calls and the lease + eth_getTransactionCount overlap instead of following each
    // other. Nothing is signed or
    // recorded before both are in; a revert or a lack of funds still fails the send here, with
    // the lease released and nothing sent.
    const preparing: Promise<[number, bigint, FeeFields]> = Promise.all([
      chain.chainId(),
      this.estimateGas(tx),
      this.fees(),
    ]).catch((err: unknown) => {
      throw mapChainError(err, this.options.errorInterface);
    });
    // Awaited under the lease; never an unhandled rejection while the lease is being taken.
    preparing.catch(() => undefined);
    return nonces.withNonce(tx.wallet.address, async (lease) => {
      const [chainId, gasLimit, fees] = await preparing;
      this.options.logger.trace(
        { kind: tx.kind, from: tx.wallet.address, chainId, gasLimit, fees },
        'transaction prepared',
      );
      const contractAddress =
        tx.to === null ? getCreateAddress({ from: tx.wallet.address, nonce: lease.nonce }) : null;
      // The same request content, nonce and fees sign to the same hash as an earlier record
      // whose send failed (the node was down, the chain restarted without it): the log refuses a
      // second record of that hash, so the fee is raised by 1 wei, a different transaction for
      // the same nonce (at most a few times; then the send fails like any other).
      let raw = '';
      let hash = '';
      for (let bump = 0n; ; bump += 1n) {
        const unsigned = Transaction.from({
          ...withTip(fees, bump),
          chainId: BigInt(chainId),
          nonce: lease.nonce,
          to: tx.to,
          value: tx.value,
          data: tx.data,
          gasLimit,
        });
        unsigned.signature = tx.wallet.signingKey.sign(unsigned.unsignedHash);
        raw = unsigned.serialized;
        hash = unsigned.hash as string;
        try {
          await this.record(tx, hash, lease.nonce, contractAddress);
          break;
        } catch (err) {
          if (!(err instanceof DuplicateTransactionError) || bump >= 3n) throw err;
          this.options.logger.warn(
            { hash, nonce: lease.nonce, from: tx.wallet.address },
            'an identical transaction is already recorded: signing it again with the fee + 1 wei',
          );
        }
      }
      try {
        await lease.confirm();
      } catch (err) {
        await this.outcome(hash, 'failed', 'not sent: the nonce lease was lost');
        throw err;
      }
      try {
        await chain.request<string>('eth_sendRawTransaction', [raw]);
      } catch (err) {
        throw await this.sendFailed(hash, err);
      }
      await this.outcome(hash, 'sent');
      this.options.logger.info(
        {
          kind: tx.kind,
          hash,
          from: tx.wallet.address,
          nonce: lease.nonce,
          requestId: tx.requestId,
        },
        'transaction sent',
      );
      return { hash, nonce: lease.nonce, from: tx.wallet.address, contractAddress };
    });
  }

  /** eth_getTransactionCount(address, 'pending'): the NonceManager's view of the chain. */
  async pendingNonce(address: string): Promise<number> {
    const count = await this.options.chain.request('eth_getTransactionCount', [address, 'pending']);
    return parseQuantity(count, 'eth_getTransactionCount');
  }

  private async estimateGas(tx: OutgoingTransaction): Promise<bigint> {
    const call: Record<string, string> = {
      from: tx.wallet.address,
      value: toQuantity(tx.value),
      data: tx.data,
    };
    if (tx.to !== null) call['to'] = tx.to;
    const estimate = await this.options.chain.request<string>('eth_estimateGas', [call]);
    return gasLimitFor(BigInt(estimate), this.options.gasMarginPercent ?? 20);
  }

  private async fees(): Promise<FeeFields> {
    const { chain } = this.options;
    const block = await chain.request<LatestBlock | null>('eth_getBlockByNumber', [
      'latest',
      false,
    ]);
    const baseFee = block?.baseFeePerGas;
    if (typeof baseFee === 'string') {
      let tip: bigint;
      try {
        tip = BigInt(await chain.request<string>('eth_maxPriorityFeePerGas'));
      } catch (err) {
        if (!(err instanceof ChainRpcError)) throw err;
        tip = this.options.fallbackPriorityFeeWei ?? 1_000_000_000n;
      }
      return eip1559Fees(BigInt(baseFee), tip);
    }
    return { type: 0, gasPrice: BigInt(await chain.request<string>('eth_gasPrice')) };
  }

  private async record(
    tx: OutgoingTransaction,
    hash: string,
    nonce: number,
    contractAddress: string | null,
  ): Promise<void> {
    try {
      await this.options.log.recordSending(
        {
          hash,
          kind: tx.kind,
          from: tx.wallet.address,
          to: tx.to,
          contractAddress,
          nonce,
          value: tx.value.toString(10),
          amount: (tx.amount ?? tx.value).toString(10),
          requestId: tx.requestId ?? null,
          createdAt: this.now(),
        },
        tx.wallet.requestKey,
      );
    } catch (err) {
      if (isStoreUnavailable(err, 'database')) {
        throw new ServiceUnavailableError(
          `${(err as Error).message}; the transaction was not recorded and nothing was sent`,
          { cause: err },
        );
      }
      if (isDuplicateKey(err)) {
        // Either this request's tempKey is already in the log (the unique temp_key_hash: two
        // requests got past Redis with one tempKey, as after a Redis that went back in time) —
        // then the log decides and nothing is sent — or this very transaction hash is (below).
        const requestKey = tx.wallet.requestKey;
        const recorded = requestKey
          ? await this.options.log.findByTempKey(requestKey.tempKeyHash).catch(() => undefined)
          : undefined;
        if (recorded) throw new TempKeyAlreadySentError(recorded, { cause: err });
        throw new DuplicateTransactionError(hash, { cause: err });
      }
      throw new InternalError('the transaction could not be recorded; nothing was sent', {
        cause: err,
      });
    }
  }

  private async sendFailed(hash: string, err: unknown): Promise<Error> {
    if (err instanceof ChainCircuitOpenError) {
      // Refused by the node's circuit breaker before anything went out: certainly not sent.
      await this.outcome(hash, 'failed', `not sent: ${err.message}`);
      return mapChainError(err, this.options.errorInterface);
    }
    if (err instanceof ChainUnavailableError) {
      // The node may have taken it before the connection failed: never re-send, say so.
      await this.outcome(hash, 'unknown', err.message);
      return new ChainNodeUnavailableError(
        `${err.message}; transaction ${hash} may or may not have been accepted (check it before retrying)`,
        { cause: err, retryAfterSeconds: err.retryAfterSeconds },
      );
    }
    const mapped = mapChainError(err, this.options.errorInterface);
    await this.outcome(hash, 'failed', mapped.message);
    return mapped;
  }

  /**
   * Best effort: the caller gets its answer even when this write fails (the database went away
   * after the broadcast). The record then stays `sending` until the reconciler settles it against
   * the chain (transaction-reconciler.ts).
   */
  private async outcome(hash: string, status: SendOutcome, error?: string): Promise<void> {
    try {
      await this.options.log.markOutcome(hash, status, error);
    } catch (err) {
      this.options.logger.error(
        { hash, status, err },
        'could not record the transaction outcome; the reconciler will settle it',
      );
    }
  }
}

/** The log already holds a record of this exact transaction hash. */
class DuplicateTransactionError extends ServiceUnavailableError {
  constructor(hash: string, options?: { cause?: unknown }) {
    super(`transaction ${hash} is already recorded; nothing was sent, try again`, options);
  }
}

/** A unique-key violation of PostgreSQL (23505) or SQLite, anywhere in the cause chain. */
function isDuplicateKey(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth += 1) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'))) {
      return true;
    }
    if (
      typeof message === 'string' &&
      /UNIQUE constraint failed|duplicate key value/.test(message)
    ) {
      return true;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** `fees` with the tip (or the legacy gas price) raised by `bump` wei. */
function withTip(fees: FeeFields, bump: bigint): FeeFields {
  if (bump === 0n) return fees;
  return fees.type === 2
    ? {
        type: 2,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas + bump,
        maxFeePerGas: fees.maxFeePerGas + bump,
      }
    : { type: 0, gasPrice: fees.gasPrice + bump };
}
