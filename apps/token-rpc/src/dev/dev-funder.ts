import { SigningKey } from 'ethers';
import { type ChainClient } from '@itp/chain';
import { DEV_CHAIN } from '@itp/dev-chain/constants';
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
}

/**
 * DEVELOPMENT ONLY (APP_ENV=development, docs/api.md §1): funds every address createAddress makes
 * (once it is stored) with test coin from the dev chain's public account #0, through the same
 * nonce manager as every other transaction, and waits until the funding is mined so that a transfer
 * works at once. An empty account #0 is DevFundingError "the dev funding account is empty: …"
 * ("500"), not the caller's "402". On a chain other than the dev chain (chain id 31337) nothing is
 * sent: account #0's key is public.
 */
export function createDevFunder(options: DevFunderOptions): (address: string) => Promise<void> {
  const wallet = {
    address: DEV_CHAIN.devOnlyAccount0.address,
    signingKey: new SigningKey(DEV_CHAIN.devOnlyAccount0.privateKey),
  };
  let warned = false;
  return async (address: string) => {
    if ((await options.chain.chainId()) !== DEV_CHAIN.chainId) {
      if (!warned) {
        options.logger.warn(
          { expectedChainId: DEV_CHAIN.chainId },
          'dev funding skipped: the node is not the dev chain',
        );
        warned = true;
      }
      return;
    }
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
            `DEV_FUNDING_WEI (${options.amountWei.toString()} wei) + gas for ${address}; ` +
            'refill it (e.g. anvil_setBalance) or lower DEV_FUNDING_WEI',
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
        throw new DevFundingError(`dev funding of ${address}: ${err.message}`, { cause: err });
      }
      throw err;
    }
    if (receipt.status !== 'success') {
      throw new DevFundingError(`dev funding transaction ${sent.hash} reverted`);
    }
    options.logger.info(
      { address, hash: sent.hash, wei: options.amountWei.toString() },
      'dev funding mined',
    );
  };
}
