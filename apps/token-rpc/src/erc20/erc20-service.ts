import { getAddress, type Result } from 'ethers';
import type { ChainClient } from '@itp/chain';
import { isBaseError } from '@itp/errors';
import type { TransactionOutcome } from '@itp/jsonrpc';
import type {
  Erc20AllowanceResult,
  Erc20ApproveParams,
  Erc20BalanceOfResult,
  Erc20DecimalsResult,
  Erc20NameResult,
  Erc20SymbolResult,
  Erc20TotalSupplyResult,
  Erc20TransferFromParams,
  Erc20TransferParams,
} from '@itp/schemas';
import { LRUCache } from 'lru-cache';
import { erc20SigningString } from '../auth/signing-string.js';
import { TransactionRevertedError, UnknownContractError } from '../errors.js';
import { mapChainError } from '../transactions/map-chain-error.js';
import type { TransactionSender } from '../transactions/transaction-sender.js';
import type { WalletService } from '../wallet/wallet-service.js';
import { itpTokenInterface } from './itp-token.js';

type ReadFunction = 'name' | 'symbol' | 'decimals' | 'totalSupply' | 'balanceOf' | 'allowance';

/**
 * /token/erc20 against any ERC-20 contract: reads with eth_call, the state-changing calls as
 * transactions from a wallet address authorised like transfer (keyType erc20). A contract address
 * without code is 404; a contract that does not answer like an ERC-20 is 400.
 */
export class Erc20Service {
  /** Addresses known to hold code (code does not disappear on current Ethereum). */
  private readonly knownContracts = new LRUCache<string, true>({ max: 10_000 });

  constructor(
    private readonly wallets: WalletService,
    private readonly sender: TransactionSender,
    private readonly chain: ChainClient,
  ) {}

  async name(contract: string): Promise<Erc20NameResult> {
    const c = getAddress(contract);
    return { contract: c, name: String((await this.read(c, 'name', []))[0]) };
  }

  async symbol(contract: string): Promise<Erc20SymbolResult> {
    const c = getAddress(contract);
    return { contract: c, symbol: String((await this.read(c, 'symbol', []))[0]) };
  }

  async decimals(contract: string): Promise<Erc20DecimalsResult> {
    const c = getAddress(contract);
    return { contract: c, decimals: Number((await this.read(c, 'decimals', []))[0]) };
  }

  async totalSupply(contract: string): Promise<Erc20TotalSupplyResult> {
    const c = getAddress(contract);
    return { contract: c, totalSupply: String((await this.read(c, 'totalSupply', []))[0]) };
  }

  async balanceOf(contract: string, address: string): Promise<Erc20BalanceOfResult> {
    const c = getAddress(contract);
    const a = getAddress(address);
    return { contract: c, address: a, balance: String((await this.read(c, 'balanceOf', [a]))[0]) };
  }

  async allowance(contract: string, owner: string, spender: string): Promise<Erc20AllowanceResult> {
    const c = getAddress(contract);
    const o = getAddress(owner);
    const s = getAddress(spender);
    const allowance = String((await this.read(c, 'allowance', [o, s]))[0]);
    return { contract: c, owner: o, spender: s, allowance };
  }

  transfer(p: Erc20TransferParams, requestId?: string): Promise<TransactionOutcome<string>> {
    return this.write(
      p,
      'erc20.transfer',
      'transfer',
      [getAddress(p.to), BigInt(p.amount)],
      requestId,
    );
  }

  approve(p: Erc20ApproveParams, requestId?: string): Promise<TransactionOutcome<string>> {
    return this.write(
      p,
      'erc20.approve',
      'approve',
      [getAddress(p.to), BigInt(p.amount)],
      requestId,
    );
  }

  transferFrom(
    p: Erc20TransferFromParams,
    requestId?: string,
  ): Promise<TransactionOutcome<string>> {
    return this.write(
      p,
      'erc20.transferFrom',
      'transferFrom',
      [getAddress(p.owner), getAddress(p.to), BigInt(p.amount)],
      requestId,
    );
  }

  private write(
    p: Erc20TransferParams | Erc20TransferFromParams,
    kind: 'erc20.transfer' | 'erc20.approve' | 'erc20.transferFrom',
    fn: 'transfer' | 'approve' | 'transferFrom',
    args: unknown[],
    requestId: string | undefined,
  ): Promise<TransactionOutcome<string>> {
    return this.wallets.authorizeTransaction(
      {
        method: kind,
        params: p,
        from: p.from,
        keyType: 'erc20',
        tempKey: p.tempKey,
        hashKey: p.hashKey,
        signature: p.signature,
        signing: erc20SigningString(p),
      },
      async (wallet) => {
        const contract = getAddress(p.contract);
        await this.requireContract(contract);
        const sent = await this.sender.send({
          kind,
          wallet,
          to: contract,
          value: 0n,
          amount: BigInt(p.amount),
          data: itpTokenInterface.encodeFunctionData(fn, args),
          requestId,
        });
        return { transactionId: sent.hash, resultData: sent.hash };
      },
    );
  }

  private async read(contract: string, fn: ReadFunction, args: unknown[]): Promise<Result> {
    await this.requireContract(contract);
    let returned: string;
    try {
      returned = await this.chain.request<string>('eth_call', [
        { to: contract, data: itpTokenInterface.encodeFunctionData(fn, args) },
        'latest',
      ]);
    } catch (err) {
      const mapped = mapChainError(err, itpTokenInterface);
      if (mapped instanceof TransactionRevertedError) throw notErc20(contract, fn);
      throw mapped;
    }
    try {
      return itpTokenInterface.decodeFunctionResult(fn, returned);
    } catch {
      throw notErc20(contract, fn);
    }
  }

  private async requireContract(contract: string): Promise<void> {
    if (this.knownContracts.has(contract)) return;
    let code: string;
    try {
      code = await this.chain.request<string>('eth_getCode', [contract, 'latest']);
    } catch (err) {
      throw isBaseError(err) ? err : mapChainError(err, itpTokenInterface);
    }
    if (code === '0x' || code === '0x0' || code === '') throw new UnknownContractError(contract);
    this.knownContracts.set(contract, true);
  }
}

function notErc20(contract: string, fn: ReadFunction): TransactionRevertedError {
  return new TransactionRevertedError(
    `the contract at ${contract} does not answer ${fn}() like an ERC-20 token`,
  );
}
