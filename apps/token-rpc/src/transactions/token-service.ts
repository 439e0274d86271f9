import { getAddress } from 'ethers';
import type { ChainClient } from '@itp/chain';
import type { CreateTokenParams, GetBalanceResult, TransferParams } from '@itp/schemas';
import type { TransactionOutcome } from '@itp/jsonrpc';
import { createTokenSigningString, transferSigningString } from '../auth/signing-string.js';
import { itpTokenDeployData } from '../erc20/itp-token.js';
import { InternalError } from '@itp/errors';
import type { WalletService } from '../wallet/wallet-service.js';
import type { TransactionSender } from './transaction-sender.js';

/** The native-coin and token-deployment transactions of /token, and getBalance. */
export class TokenService {
  constructor(
    private readonly wallets: WalletService,
    private readonly sender: TransactionSender,
    private readonly chain: ChainClient,
  ) {}

  async getBalance(address: string): Promise<GetBalanceResult> {
    const checksummed = getAddress(address);
    const balance = await this.chain.request<string>('eth_getBalance', [checksummed, 'latest']);
    return { address: checksummed, balance: BigInt(balance).toString(10) };
  }

  /** transfer: native coin from a wallet address; resultData = the transaction hash. */
  async transfer(p: TransferParams, requestId?: string): Promise<TransactionOutcome<string>> {
    const wallet = await this.wallets.authorizeTransaction({
      from: p.from,
      keyType: 'transfer',
      tempKey: p.tempKey,
      hashKey: p.hashKey,
      signature: p.signature,
      signing: transferSigningString(p),
    });
    const sent = await this.sender.send({
      kind: 'transfer',
      wallet,
      to: getAddress(p.to),
      value: BigInt(p.amount),
      data: '0x',
      requestId,
    });
    return { transactionId: sent.hash, resultData: sent.hash };
  }

  /** createToken: deploys the ERC-20; resultData = the new contract's address. */
  async createToken(p: CreateTokenParams, requestId?: string): Promise<TransactionOutcome<string>> {
    const wallet = await this.wallets.authorizeTransaction({
      from: p.from,
      keyType: 'createToken',
      tempKey: p.tempKey,
      hashKey: p.hashKey,
      signature: p.signature,
      signing: createTokenSigningString(p),
    });
    const sent = await this.sender.send({
      kind: 'createToken',
      wallet,
      to: null,
      value: 0n,
      data: itpTokenDeployData(p.name, p.symbol, Number(p.decimals), BigInt(p.initialSupply)),
      requestId,
    });
    if (!sent.contractAddress)
      throw new InternalError('deployment sent without a contract address');
    return { transactionId: sent.hash, resultData: sent.contractAddress };
  }
}
