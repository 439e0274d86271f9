import { SigningKey } from 'ethers';
import { type ChainClient } from '@itp/chain';
import { DEV_CHAIN } from '@itp/dev-chain';
import type { Logger } from '@itp/service-kit';
import { ChainFailureError } from '../errors.js';
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
 * DEVELOPMENT ONLY (APP_ENV=development, contract §1): funds every address createAddress makes
 * with test coin from the dev chain's public account #0, through the same nonce manager as every
 * other transaction, and waits until the funding is mined so that a transfer works at once. On a
 * chain other than the dev chain (chain id 31337) nothing is sent: account #0's key is public.
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
    const sent = await options.sender.send({
      kind: 'devFunding',
      wallet,
      to: address,
      value: options.amountWei,
      data: '0x',
    });
    const receipt = await waitForReceipt(options.chain, sent.hash, options.receiptTimeoutMs);
    if (receipt.status !== 'success') {
      throw new ChainFailureError(`dev funding transaction ${sent.hash} reverted`);
    }
    options.logger.info(
      { address, hash: sent.hash, wei: options.amountWei.toString() },
      'dev funding mined',
    );
  };
}
