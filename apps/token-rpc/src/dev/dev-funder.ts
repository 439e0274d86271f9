import { SigningKey, toQuantity } from 'ethers';
import { ChainRpcError, type ChainClient } from '@itp/chain';
import { DEV_CHAIN } from '@itp/dev-chain/constants';
import { ServiceUnavailableError, isBaseError } from '@itp/errors';
import type { Logger } from '@itp/service-kit';
import { ChainFailureError, DevFundingError, InsufficientFundsError } from '../errors.js';
import type { TransactionSender } from '../transactions/transaction-sender.js';
import { waitForReceipt } from '../transactions/wait-for-receipt.js';

export interface DevFunderOptions {
  sender: TransactionSender;
  chain: ChainClient;
  logger: Logger;
  amountWei: bigint;
  receiptTimeoutMs: number;
  /**
   * Below this balance the funding account is topped up before it funds (default 100 fundings'
   * worth: 100 × amountWei).
   */
  topUpBelowWei?: bigint;
  /**
   * The balance a top-up sets (default the larger of anvil's 10 000 test ETH and 1 000 fundings'
   * worth).
   */
  topUpToWei?: bigint;
}

const TEN_THOUSAND_ETH = 10_000n * 10n ** 18n;

/** The dev nodes' balance cheat codes: anvil's, then hardhat's (the same parameters). */
const SET_BALANCE_METHODS = ['anvil_setBalance', 'hardhat_setBalance'] as const;

/**
 * DEVELOPMENT ONLY (APP_ENV=development, docs/api.md §1): funds every address createAddress makes
 * (once it is stored) with test coin from the dev chain's public account #0, through the same
 * nonce manager as every other transaction, and waits until the funding is mined so that a transfer
 * works at once.
 *
 * The funding account never runs dry: before each funding, when its balance is below
 * `topUpBelowWei`, it is set to `topUpToWei` with the dev node's cheat code (`anvil_setBalance`,
 * else `hardhat_setBalance`). That happens only on the dev chain (chain id 31337): on any other
 * chain nothing is sent and nothing is topped up (account #0's key is public).
 *
 * Every failure is DevFundingError ("503", "dev funding failed: …"): the dev stack's problem, not
 * the caller's (never the caller's "402"); the wallet then removes the address it stored.
 */
export function createDevFunder(options: DevFunderOptions): (address: string) => Promise<void> {
  const wallet = {
    address: DEV_CHAIN.devOnlyAccount0.address,
    signingKey: new SigningKey(DEV_CHAIN.devOnlyAccount0.privateKey),
  };
  const topUpBelow = options.topUpBelowWei ?? options.amountWei * 100n;
  const topUpTo =
    options.topUpToWei ??
    (options.amountWei * 1000n > TEN_THOUSAND_ETH ? options.amountWei * 1000n : TEN_THOUSAND_ETH);
  let warned = false;

  /** Tops account #0 up when it runs low; a node without the cheat codes is only logged. */
  async function topUp(): Promise<void> {
    const balance = BigInt(
      await options.chain.request<string>('eth_getBalance', [wallet.address, 'pending']),
    );
    if (balance >= topUpBelow) return;
    for (const method of SET_BALANCE_METHODS) {
      try {
        await options.chain.request(method, [wallet.address, toQuantity(topUpTo)]);
        options.logger.info(
          { account: wallet.address, balance: balance.toString(), to: topUpTo.toString(), method },
          'dev funding account topped up',
        );
        return;
      } catch (err) {
        if (!(err instanceof ChainRpcError)) throw err;
      }
    }
    options.logger.warn(
      { account: wallet.address, balance: balance.toString() },
      'the dev funding account runs low and the node refuses anvil_setBalance / hardhat_setBalance',
    );
  }

  async function fund(address: string): Promise<void> {
    await topUp();
    let sent;
    try {
      sent = await options.sender.send({
        kind: 'devFunding',
        wallet,
        to: address,
        value: options.amountWei,
        data: '0x',
      });
    } catch (err) {
      // "The sending address cannot pay" would name the caller's problem: it is the dev stack's.
      if (err instanceof InsufficientFundsError) {
        throw new DevFundingError(
          `the dev funding account is empty: ${wallet.address} cannot pay ` +
            `DEV_FUNDING_WEI (${options.amountWei.toString()} wei) + gas for ${address} and the ` +
            'node did not top it up; refill it (e.g. anvil_setBalance) or lower DEV_FUNDING_WEI',
          { cause: err },
        );
      }
      throw err;
    }
    let receipt;
    try {
      receipt = await waitForReceipt(options.chain, sent.hash, options.receiptTimeoutMs);
    } catch (err) {
      if (err instanceof ChainFailureError) {
        throw new DevFundingError(`transaction ${sent.hash}: ${err.message}`, { cause: err });
      }
      throw err;
    }
    if (receipt.status !== 'success') {
      throw new DevFundingError(`transaction ${sent.hash} reverted`);
    }
    options.logger.info(
      { address, hash: sent.hash, wei: options.amountWei.toString() },
      'dev funding mined',
    );
  }

  return async (address: string) => {
    let chainId: number;
    try {
      chainId = await options.chain.chainId();
    } catch (err) {
      throw fundingFailed(err);
    }
    if (chainId !== DEV_CHAIN.chainId) {
      if (!warned) {
        options.logger.warn(
          { expectedChainId: DEV_CHAIN.chainId },
          'dev funding skipped: the node is not the dev chain',
        );
        warned = true;
      }
      return;
    }
    try {
      await fund(address);
    } catch (err) {
      throw fundingFailed(err);
    }
  };
}

/**
 * Any failure of the funding as DevFundingError ("503"), keeping a dependency's Retry-After; a
 * message not meant for callers (an internal failure) is not passed on (the cause is logged).
 */
function fundingFailed(err: unknown): DevFundingError {
  if (err instanceof DevFundingError) return err;
  const reason =
    isBaseError(err) && err.expose ? err.message : 'an internal failure (see the service log)';
  return new DevFundingError(reason, {
    cause: err,
    ...(err instanceof ServiceUnavailableError ? { retryAfterSeconds: err.retryAfterSeconds } : {}),
  });
}
