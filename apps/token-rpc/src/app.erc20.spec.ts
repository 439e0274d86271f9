import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getAddress } from 'ethers';
import type { RunningAnvil } from '@itp/dev-chain';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  ONE_ETH,
  authorize,
  chainCall,
  createAddress,
  ok,
  receiptOf,
  rpc,
  setBalance,
  startFundedTestChain,
  startTokenApp,
  type TestWallet,
  type TokenTestApp,
} from './testing/token-test-kit.js';

const SUPPLY = (1_000_000n * 10n ** 6n).toString();

/** createToken and every /token/erc20 method, with their error paths, against a real chain. */
describe('token-rpc ERC-20', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let app: TokenTestApp;
  let owner: TestWallet;
  let spender: TestWallet;
  let receiver: TestWallet;
  let contract: string;

  async function erc20Tx(
    method: 'transfer' | 'approve' | 'transferFrom',
    wallet: TestWallet,
    fields: { to: string; amount: string; owner?: string },
    c = contract,
  ) {
    const creds = await authorize(app.url, wallet, 'erc20', (t, h) => [
      wallet.address,
      c,
      fields.to,
      fields.amount,
      t,
      h,
    ]);
    return rpc(app.url, '/token/erc20', method, {
      from: wallet.address,
      contract: c,
      ...fields,
      ...creds,
    });
  }

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    app = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix: uniquePrefix('token'),
    });
    [owner, spender, receiver] = await Promise.all([
      createAddress(app.url),
      createAddress(app.url),
      createAddress(app.url),
    ]);
    await setBalance(chain.url, owner.address, ONE_ETH);
    await setBalance(chain.url, spender.address, ONE_ETH);
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await chain?.stop();
  });

  it('createToken deploys the ERC-20 with the initial supply minted to from', async () => {
    const params = {
      from: owner.address,
      name: 'Demo Token',
      symbol: 'DEMO',
      decimals: 6,
      initialSupply: SUPPLY,
    };
    const creds = await authorize(app.url, owner, 'createToken', (t, h) => [
      params.from,
      params.name,
      params.symbol,
      params.decimals,
      params.initialSupply,
      t,
      h,
    ]);
    const answer = await rpc(app.url, '/token', 'createToken', { ...params, ...creds });
    expect(answer.result.resultCode).toBe('200');
    contract = answer.result.resultData;
    expect(contract).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const receipt = await receiptOf(chain.url, answer.result.TransactionID);
    expect(receipt.status).toBe('0x1');
    expect(receipt.contractAddress.toLowerCase()).toBe(contract.toLowerCase());

    expect(await ok(app.url, '/token/erc20', 'name', { contract })).toEqual({
      contract,
      name: 'Demo Token',
    });
    expect(await ok(app.url, '/token/erc20', 'symbol', { contract })).toEqual({
      contract,
      symbol: 'DEMO',
    });
    expect(await ok(app.url, '/token/erc20', 'decimals', { contract })).toEqual({
      contract,
      decimals: 6,
    });
    expect(await ok(app.url, '/token/erc20', 'totalSupply', { contract })).toEqual({
      contract,
      totalSupply: SUPPLY,
    });
    expect(
      await ok(app.url, '/token/erc20', 'balanceOf', { contract, address: owner.address }),
    ).toEqual({
      contract,
      address: owner.address,
      balance: SUPPLY,
    });
  });

  it('createToken accepts decimals as a string (signed as sent)', async () => {
    const params = {
      from: owner.address,
      name: 'Zero',
      symbol: 'Z0',
      decimals: '0',
      initialSupply: '0',
    };
    const creds = await authorize(app.url, owner, 'createToken', (t, h) => [
      params.from,
      params.name,
      params.symbol,
      params.decimals,
      params.initialSupply,
      t,
      h,
    ]);
    const address = await ok(app.url, '/token', 'createToken', { ...params, ...creds });
    expect(await ok(app.url, '/token/erc20', 'decimals', { contract: address })).toEqual({
      contract: address,
      decimals: 0,
    });
    expect(
      (await ok(app.url, '/token/erc20', 'totalSupply', { contract: address })).totalSupply,
    ).toBe('0');
  });

  it('transfer moves tokens', async () => {
    const answer = await erc20Tx('transfer', owner, { to: receiver.address, amount: '2500' });
    expect(answer.result.resultCode).toBe('200');
    expect(answer.result.resultData).toBe(answer.result.TransactionID);
    expect((await receiptOf(chain.url, answer.result.TransactionID)).status).toBe('0x1');
    expect(
      (await ok(app.url, '/token/erc20', 'balanceOf', { contract, address: receiver.address }))
        .balance,
    ).toBe('2500');
  });

  it('approve, allowance and transferFrom', async () => {
    const approved = await erc20Tx('approve', owner, { to: spender.address, amount: '1000' });
    expect(approved.result.resultCode).toBe('200');
    await receiptOf(chain.url, approved.result.TransactionID);
    expect(
      await ok(app.url, '/token/erc20', 'allowance', {
        contract,
        owner: owner.address,
        spender: spender.address,
      }),
    ).toEqual({
      contract,
      owner: owner.address,
      spender: spender.address,
      allowance: '1000',
    });
    const moved = await erc20Tx('transferFrom', spender, {
      owner: owner.address,
      to: receiver.address,
      amount: '400',
    });
    expect(moved.result.resultCode).toBe('200');
    expect((await receiptOf(chain.url, moved.result.TransactionID)).status).toBe('0x1');
    expect(
      (await ok(app.url, '/token/erc20', 'balanceOf', { contract, address: receiver.address }))
        .balance,
    ).toBe('2900');
    expect(
      (
        await ok(app.url, '/token/erc20', 'allowance', {
          contract,
          owner: owner.address,
          spender: spender.address,
        })
      ).allowance,
    ).toBe('600');
  });

  it('402 for a transfer above the token balance and a transferFrom above the allowance', async () => {
    await setBalance(chain.url, receiver.address, ONE_ETH);
    const balance = await erc20Tx('transfer', receiver, { to: owner.address, amount: '1000000' });
    expect(balance.result).toEqual({
      resultCode: '402',
      resultMessage: `token balance of ${receiver.address} is 2900, below the amount 1000000`,
      resultData: '',
    });
    const allowance = await erc20Tx('transferFrom', spender, {
      owner: owner.address,
      to: receiver.address,
      amount: '601',
    });
    expect(allowance.result.resultCode).toBe('402');
    expect(allowance.result.resultMessage).toBe(
      `allowance of spender ${spender.address} is 600, below the amount 601`,
    );
  });

  it('400 for a transfer the token refuses (the zero address)', async () => {
    const answer = await erc20Tx('transfer', owner, {
      to: '0x0000000000000000000000000000000000000000',
      amount: '1',
    });
    expect(answer.result.resultCode).toBe('400');
    expect(answer.result.resultMessage).toBe(
      'the token contract refuses receiver 0x0000000000000000000000000000000000000000',
    );
  });

  it('404 for an address without a contract, for reads and writes', async () => {
    const empty = getAddress('0x00000000000000000000000000000000000000aa');
    const read = await rpc(app.url, '/token/erc20', 'name', { contract: empty });
    expect(read.result).toEqual({
      resultCode: '404',
      resultMessage: `no contract is deployed at ${empty}`,
      resultData: '',
    });
    const write = await erc20Tx('transfer', owner, { to: receiver.address, amount: '1' }, empty);
    expect(write.result.resultCode).toBe('404');
  });

  it('400 for a contract that does not answer like an ERC-20', async () => {
    const notToken = getAddress('0x00000000000000000000000000000000000000bb');
    await chainCall(chain.url, 'anvil_setCode', [notToken, '0x00']);
    const answer = await rpc(app.url, '/token/erc20', 'symbol', { contract: notToken });
    expect(answer.result.resultCode).toBe('400');
    expect(answer.result.resultMessage).toBe(
      `the contract at ${notToken} does not answer symbol() like an ERC-20 token`,
    );
  });

  it('409 for a transfer tempKey on an erc20 method; 401 for a signature over other fields', async () => {
    const creds = await authorize(app.url, owner, 'transfer', (t, h) => [
      owner.address,
      contract,
      receiver.address,
      '1',
      t,
      h,
    ]);
    const wrongType = await rpc(app.url, '/token/erc20', 'transfer', {
      from: owner.address,
      contract,
      to: receiver.address,
      amount: '1',
      ...creds,
    });
    expect(wrongType.result.resultCode).toBe('409');
    const signed = await authorize(app.url, owner, 'erc20', (t, h) => [
      owner.address,
      contract,
      receiver.address,
      '1',
      t,
      h,
    ]);
    const tampered = await rpc(app.url, '/token/erc20', 'approve', {
      from: owner.address,
      contract,
      to: receiver.address,
      amount: '2',
      ...signed,
    });
    expect(tampered.result.resultCode).toBe('401');
  });

  it('-32602 for malformed erc20 params', async () => {
    expect((await rpc(app.url, '/token/erc20', 'balanceOf', { contract })).error.code).toBe(-32602);
    expect(
      (await rpc(app.url, '/token/erc20', 'allowance', { contract, owner: owner.address })).error
        .code,
    ).toBe(-32602);
    expect((await rpc(app.url, '/token/erc20', 'name', {})).error.code).toBe(-32602);
  });
});
