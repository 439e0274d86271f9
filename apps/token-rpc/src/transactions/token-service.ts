import { getAddress } from 'ethers';
import type { ChainClient } from '@itp/chain';
import type {
  CreateTokenParams,
  GetBalanceResult,
  GetTransactionStatusResult,
  TransferParams,
} from '@itp/schemas';
import type { TransactionOutcome } from '@itp/jsonrpc';
import { createTokenSigningString, transferSigningString } from '../auth/signing-string.js';
import { itpTokenDeployData } from '../erc20/itp-token.js';
import { InternalError } from '@itp/errors';
import { UnknownTransactionError } from '../errors.js';
import type { WalletService } from '../wallet/wallet-service.js';
import { FINAL_STATUSES, type TransactionEntry, type TransactionLog } from './transaction-log.js';
import type { TransactionSender } from './transaction-sender.js';

/** The native-coin and token-deployment transactions of /token, getBalance and their status. */
export class TokenService {
  constructor(
    private readonly wallets: WalletService,
    private readonly sender: TransactionSender,
    private readonly chain: ChainClient,
    private readonly log: TransactionLog,
    /** Settles a record that is not final when its receipt is there (the reconciler's settleIfMined). */
    private readonly settleIfMined: (entry: TransactionEntry) => Promise<TransactionEntry> = async (
      entry,
    ) => entry,
  ) {}

  async getBalance(address: string): Promise<GetBalanceResult> {
    const checksummed = getAddress(address);
    const balance = await this.chain.request<string>('eth_getBalance', [checksummed, 'latest']);
    return { address: checksummed, balance: BigInt(balance).toString(10) };
  }

  /** transfer: native coin from a wallet address; resultData = the transaction hash. */
  transfer(p: TransferParams, requestId?: string): Promise<TransactionOutcome<string>> {
    return this.wallets.authorizeTransaction(
      {
        method: 'transfer',
        params: p,
        from: p.from,
        keyType: 'transfer',
        tempKey: p.tempKey,
        hashKey: p.hashKey,
        signature: p.signature,
        signing: transferSigningString(p),
      },
      async (wallet) => {
        const sent = await this.sender.send({
          kind: 'transfer',
          wallet,
          to: getAddress(p.to),
          value: BigInt(p.amount),
          data: '0x',
          requestId,
        });
        return { transactionId: sent.hash, resultData: sent.hash };
      },
    );
  }

  /** createToken: deploys the ERC-20; resultData = the new contract's address. */
  createToken(p: CreateTokenParams, requestId?: string): Promise<TransactionOutcome<string>> {
    return this.wallets.authorizeTransaction(
      {
        method: 'createToken',
        params: p,
        from: p.from,
        keyType: 'createToken',
        tempKey: p.tempKey,
        hashKey: p.hashKey,
        signature: p.signature,
        signing: createTokenSigningString(p),
      },
      async (wallet) => {
        const sent = await this.sender.send({
          kind: 'createToken',
          wallet,
          to: null,
          value: 0n,
          amount: BigInt(p.initialSupply),
          data: itpTokenDeployData(p.name, p.symbol, Number(p.decimals), BigInt(p.initialSupply)),
          requestId,
        });
        if (!sent.contractAddress)
          throw new InternalError('deployment sent without a contract address');
        return { transactionId: sent.hash, resultData: sent.contractAddress };
      },
    );
  }

  /** getTransactionStatus: the record of a transaction this service sent, by its TransactionID. */
  async getTransactionStatus(transactionId: string): Promise<GetTransactionStatusResult> {
    const stored = await this.log.find(transactionId.toLowerCase());
    if (!stored) throw new UnknownTransactionError(transactionId);
    const entry = await this.settleIfMined(stored);
    return {
      transactionId: entry.hash,
      kind: entry.kind,
      status: entry.status,
      final: FINAL_STATUSES.has(entry.status),
      from: entry.from,
      to: entry.to,
      contractAddress: entry.contractAddress,
      amount: entry.amount,
      nonce: entry.nonce,
      blockNumber: entry.blockNumber,
      error: entry.error,
      createdAt: new Date(entry.createdAt).toISOString(),
      updatedAt: new Date(entry.updatedAt).toISOString(),
    };
  }
}
