import { createHash } from 'node:crypto';
import type { RecordedRpcExample, RpcApi, RpcExamplesFile } from '@itp/token-rpc/rpc-examples';
import { waitFor } from '@itp/testing/wait-for';
import type { ApiClient, RpcResult } from './api-client.js';
import { PUBLIC_TEST_MNEMONIC, shownSafely } from './placeholders.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const PATHS: Record<RpcApi, '/token' | '/token/erc20'> = {
  token: '/token',
  erc20: '/token/erc20',
};
/** token-rpc's reconciler settles records every 30 s (TX_RECONCILE_INTERVAL_MS), after 10 s. */
const MINED_DEADLINE_MS = 90_000;

interface Wallet {
  address: string;
  secretKey: string;
}

/** Calls the token APIs through the gateway; records the calls it is asked to, as answered. */
class RpcRecorder {
  readonly apis: RpcExamplesFile['apis'] = { token: {}, erc20: {} };

  constructor(private readonly client: ApiClient) {}

  /** A call that must succeed; recorded under `name` when a name is given. */
  async call(api: RpcApi, method: string, params: unknown, name?: string): Promise<RpcResult> {
    const result = await this.client.rpc(PATHS[api], method, params);
    if (result.resultCode !== '200') {
      throw new Error(`${PATHS[api]} ${method} failed: ${shownSafely(result)}`);
    }
    if (name) {
      const example: RecordedRpcExample = { name, params, result };
      (this.apis[api][method] ??= []).push(example);
    }
    return result;
  }

  async data<T>(api: RpcApi, method: string, params: unknown, name?: string): Promise<T> {
    return (await this.call(api, method, params, name)).resultData as T;
  }

  /**
   * tempKey → hashKey → signData over SHA-256 of `fields|tempKey|hashKey` (docs/api.md §4): the
   * credentials of one transaction. Recorded when `record` names the examples.
   */
  async authorise(
    wallet: Wallet,
    keyType: 'transfer' | 'createToken' | 'erc20',
    fields: string[],
    record?: { tempKey: string; signData: string },
  ): Promise<{ tempKey: string; hashKey: string; signature: string }> {
    const { tempKey } = await this.data<{ tempKey: string }>(
      'token',
      'net_getTempKey',
      { address: wallet.address, keyType },
      record?.tempKey,
    );
    const hashKey = sha256(`${tempKey}|${wallet.secretKey}`);
    const hash = sha256([...fields, tempKey, hashKey].join('|'));
    const signature = await this.data<string>(
      'token',
      'signData',
      { from: wallet.address, hash, tempKey, hashKey },
      record?.signData,
    );
    return { tempKey, hashKey, signature };
  }

  /**
   * Polls getTransactionStatus until the transaction is final (it must be mined), then records
   * one more call under `name`. The dev chain mines at once; the status follows when token-rpc's
   * reconciler runs.
   */
  async recordSettled(transactionId: string, name: string): Promise<void> {
    const { status } = await waitFor(
      async () => {
        const answer = await this.data<{ final: boolean; status: string }>(
          'token',
          'getTransactionStatus',
          { transactionId },
        );
        return answer.final && answer;
      },
      {
        what: `transaction ${transactionId} to be final`,
        timeoutMs: MINED_DEADLINE_MS,
        intervalMs: 1_000,
      },
    );
    if (status !== 'mined') throw new Error(`${transactionId} ended ${status}`);
    await this.data('token', 'getTransactionStatus', { transactionId }, name);
  }
}

/**
 * Every method of `/token` and `/token/erc20` once (or more), in the order a client uses them:
 * two wallet addresses (funded in dev mode) and an imported one, a native transfer, an ERC-20
 * token deployed, read, transferred, approved and spent by the approved spender.
 */
export async function recordTokenExamples(client: ApiClient): Promise<RpcExamplesFile['apis']> {
  const rec = new RpcRecorder(client);
  const alice = await rec.data<Wallet>(
    'token',
    'createAddress',
    {},
    'a new wallet address (funded with test coin in dev mode)',
  );
  const bob = await rec.data<Wallet>('token', 'createAddress', {});
  const carol = await rec.data<Wallet>(
    'token',
    'importAddress',
    { mnemonic: PUBLIC_TEST_MNEMONIC },
    'restore the address of a mnemonic (here the BIP-39 test vector)',
  );
  await rec.data('token', 'getBalance', { address: alice.address }, 'a funded wallet address');

  const amount = '1000000000000000';
  const transfer = await rec.authorise(alice, 'transfer', [alice.address, bob.address, amount], {
    tempKey: 'a tempKey for a transfer',
    signData: 'sign the SHA-256 of the transfer signing string',
  });
  const sent = await rec.call(
    'token',
    'transfer',
    { from: alice.address, to: bob.address, amount, ...transfer },
    'send 0.001 ETH',
  );

  const token = {
    name: 'Example Token',
    symbol: 'EXT',
    decimals: 18,
    initialSupply: '1000000000000000000000',
  };
  const deploy = await rec.authorise(alice, 'createToken', [
    alice.address,
    token.name,
    token.symbol,
    String(token.decimals),
    token.initialSupply,
  ]);
  const created = await rec.call(
    'token',
    'createToken',
    { from: alice.address, ...token, ...deploy },
    'deploy an ERC-20 token with 1000 tokens of 18 decimals',
  );
  const contract = created.resultData as string;

  for (const method of ['name', 'symbol', 'decimals', 'totalSupply']) {
    await rec.data('erc20', method, { contract }, `the ${method} of the example token`);
  }
  await rec.data(
    'erc20',
    'balanceOf',
    { contract, address: alice.address },
    'the balance of the address that deployed it',
  );

  const erc20Send = async (
    method: 'transfer' | 'approve' | 'transferFrom',
    from: Wallet,
    to: string,
    value: string,
    name: string,
    owner?: string,
  ): Promise<void> => {
    const auth = await rec.authorise(from, 'erc20', [from.address, contract, to, value]);
    const params = {
      from: from.address,
      contract,
      ...(owner ? { owner } : {}),
      to,
      amount: value,
      ...auth,
    };
    await rec.call('erc20', method, params, name);
  };
  await erc20Send('transfer', alice, carol.address, '5000000000000000000', 'send 5 tokens');
  await erc20Send('approve', alice, bob.address, '2000000000000000000', 'allow a spender 2 tokens');
  await rec.data(
    'erc20',
    'allowance',
    { contract, owner: alice.address, spender: bob.address },
    'what the approved spender may spend',
  );
  await erc20Send(
    'transferFrom',
    bob,
    carol.address,
    '1000000000000000000',
    'the spender moves 1 token of the owner',
    alice.address,
  );
  await rec.data(
    'erc20',
    'balanceOf',
    { contract, address: carol.address },
    'the balance of the recipient after transfer and transferFrom',
  );
  // Last: the reconciler marks a transaction mined within TX_RECONCILE_INTERVAL_MS (30 s).
  await rec.recordSettled(sent.TransactionID as string, 'a mined transfer');
  return rec.apis;
}
