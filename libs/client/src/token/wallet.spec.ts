import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { createClient } from '../client.js';
import { InsufficientFundsError } from '../errors/error-classes.js';
import { fakeFetch, rpcResult, type SeenRequest } from '../testing/fake-fetch.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const FROM = '0x1111111111111111111111111111111111111111';
const TO = '0x2222222222222222222222222222222222222222';
const CONTRACT = '0x3333333333333333333333333333333333333333';
const SECRET = 'a'.repeat(64);
const TEMP_KEY = 'b'.repeat(64);
const SIGNATURE = `0x${'c'.repeat(130)}`;
const TX = `0x${'d'.repeat(64)}`;

/** A fake /token and /token/erc20: tempKeys, signatures and transactions. */
function fakeToken(transactionAnswer?: (req: SeenRequest) => Record<string, unknown>) {
  return fakeFetch((req) => {
    const { method } = req.body as { method: string };
    if (method === 'net_getTempKey') return rpcResult(req, { resultData: { tempKey: TEMP_KEY } });
    if (method === 'signData') return rpcResult(req, { resultData: SIGNATURE });
    if (method === 'createAddress') {
      return rpcResult(req, { resultData: { address: FROM, mnemonic: 'm', secretKey: SECRET } });
    }
    return rpcResult(req, transactionAnswer?.(req) ?? { TransactionID: TX, resultData: TX });
  });
}

const rpc = (req: SeenRequest | undefined) =>
  req
    ? { path: new URL(req.url).pathname, ...(req.body as { method: string; params: unknown }) }
    : undefined;

describe('wallet: tempKey → hashKey → signData → method', () => {
  it('transfer signs SHA-256 of from|to|amount|tempKey|hashKey', async () => {
    const { fetch, seen } = fakeToken();
    const itp = createClient({ baseUrl: 'http://gw/', fetch });
    const result = await itp.token
      .wallet({ address: FROM, secretKey: SECRET })
      .transfer({ to: TO, amount: '1000' });
    expect(result).toEqual({ transactionId: TX, resultData: TX });
    const hashKey = sha(`${TEMP_KEY}|${SECRET}`);
    expect(seen.map(rpc)).toMatchObject([
      { path: '/token', method: 'net_getTempKey', params: { address: FROM, keyType: 'transfer' } },
      {
        path: '/token',
        method: 'signData',
        params: {
          from: FROM,
          hash: sha(`${FROM}|${TO}|1000|${TEMP_KEY}|${hashKey}`),
          tempKey: TEMP_KEY,
          hashKey,
        },
      },
      {
        path: '/token',
        method: 'transfer',
        params: {
          from: FROM,
          to: TO,
          amount: '1000',
          tempKey: TEMP_KEY,
          hashKey,
          signature: SIGNATURE,
        },
      },
    ]);
    expect(JSON.stringify(seen)).not.toContain(SECRET);
  });

  it('createToken signs the decimals as sent', async () => {
    const { fetch, seen } = fakeToken(() => ({ TransactionID: TX, resultData: CONTRACT }));
    const itp = createClient({ baseUrl: 'http://gw', fetch });
    const wallet = itp.token.wallet({ address: FROM, secretKey: SECRET });
    const result = await wallet.createToken({
      name: 'Tok',
      symbol: 'TK',
      decimals: 18,
      initialSupply: '5',
    });
    expect(result.resultData).toBe(CONTRACT);
    const hashKey = sha(`${TEMP_KEY}|${SECRET}`);
    expect(seen.map(rpc)[0]).toMatchObject({ params: { keyType: 'createToken' } });
    expect(seen.map(rpc)[1]).toMatchObject({
      params: { hash: sha(`${FROM}|Tok|TK|18|5|${TEMP_KEY}|${hashKey}`) },
    });
    expect(seen.map(rpc)[2]).toMatchObject({
      method: 'createToken',
      params: { decimals: 18, initialSupply: '5' },
    });
  });

  it('erc20 approve sends the spender as `to` and signs from|contract|to|amount', async () => {
    const { fetch, seen } = fakeToken();
    const itp = createClient({ baseUrl: 'http://gw', fetch });
    await itp.token
      .wallet({ address: FROM, secretKey: SECRET })
      .erc20(CONTRACT)
      .approve({ spender: TO, amount: '7' });
    const hashKey = sha(`${TEMP_KEY}|${SECRET}`);
    expect(seen.map(rpc)).toMatchObject([
      { path: '/token', method: 'net_getTempKey', params: { keyType: 'erc20' } },
      {
        path: '/token',
        method: 'signData',
        params: { hash: sha(`${FROM}|${CONTRACT}|${TO}|7|${TEMP_KEY}|${hashKey}`) },
      },
      {
        path: '/token/erc20',
        method: 'approve',
        params: { from: FROM, contract: CONTRACT, to: TO, amount: '7' },
      },
    ]);
  });

  it('createWallet is createAddress as a wallet that keeps its mnemonic and secretKey', async () => {
    const { fetch } = fakeToken();
    const wallet = await createClient({ baseUrl: 'http://gw', fetch }).token.createWallet();
    expect([wallet.address, wallet.mnemonic, wallet.secretKey]).toEqual([FROM, 'm', SECRET]);
  });

  it('a service error of the transaction is thrown as its class', async () => {
    const { fetch } = fakeToken(() => ({
      resultCode: '402',
      resultMessage: 'insufficient funds',
      resultData: '',
    }));
    const wallet = createClient({ baseUrl: 'http://gw', fetch }).token.wallet({
      address: FROM,
      secretKey: SECRET,
    });
    await expect(wallet.transfer({ to: TO, amount: '1' })).rejects.toBeInstanceOf(
      InsufficientFundsError,
    );
  });
});
