import { describe, expect, it } from '@jest/globals';
import { newWallet } from '../flows.js';
import { chainCall, ok, rpc, sha256, transfer, type Json } from '../http.js';
import { waitFor } from '@itp/testing/wait-for';
import type { Suite } from './context.js';

const ONE_ETH = 10n ** 18n;
const TO = '0x000000000000000000000000000000000000bEEF';

/**
 * /token and /token/erc20 through the gateway: the seed transfer flow end to end, errors passed
 * through, routing, concurrent transfers without a nonce gap.
 */
export const tokenSuite: Suite = ({ stack }) => {
  describe('token-rpc through the gateway', () => {
    it('runs the seed transfer flow end to end; the transaction is mined; a retry is idempotent', async () => {
      const { gatewayUrl: gw, chainUrl } = stack();
      const wallet = await newWallet(gw);
      const funded = await ok(gw, '/token', 'getBalance', { address: wallet.address });
      expect(BigInt(funded.balance)).toBeGreaterThanOrEqual(ONE_ETH);

      const { tempKey } = await ok(gw, '/token', 'net_getTempKey', {
        address: wallet.address,
        keyType: 'transfer',
      });
      const hashKey = sha256(`${tempKey}|${wallet.secretKey}`);
      const amount = '1000000000000000';
      const hash = sha256(`${wallet.address}|${TO}|${amount}|${tempKey}|${hashKey}`);
      const signature = await ok(gw, '/token', 'signData', {
        from: wallet.address,
        hash,
        tempKey,
        hashKey,
      });
      expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
      const params = { from: wallet.address, to: TO, amount, tempKey, hashKey, signature };
      const sent = await rpc(gw, '/token', 'transfer', params);
      expect(sent.result).toMatchObject({ resultCode: '200', resultMessage: 'Success' });
      expect(sent.result.TransactionID).toMatch(/^0x[0-9a-f]{64}$/);
      const receipt = await waitFor(
        () => chainCall(chainUrl, 'eth_getTransactionReceipt', [sent.result.TransactionID]),
        { what: 'the transfer receipt', intervalMs: 25 },
      );
      expect(receipt.status).toBe('0x1');
      const tx = await chainCall(chainUrl, 'eth_getTransactionByHash', [sent.result.TransactionID]);
      expect(tx.to.toLowerCase()).toBe(TO.toLowerCase());
      expect(BigInt(tx.value)).toBe(BigInt(amount));

      // An identical retry gets the same answer; another request with the used tempKey is refused.
      expect((await rpc(gw, '/token', 'transfer', params)).result).toEqual(sent.result);
      const other = await rpc(gw, '/token', 'transfer', { ...params, amount: '1' });
      expect(other.result.resultCode).toBe('409');
    }, 60_000);

    it('passes service and protocol errors through unchanged (HTTP 200)', async () => {
      const gw = stack().gatewayUrl;
      const wallet = await newWallet(gw);
      const { tempKey } = await ok(gw, '/token', 'net_getTempKey', {
        address: wallet.address,
        keyType: 'transfer',
      });
      const badHashKey = await rpc(gw, '/token', 'signData', {
        from: wallet.address,
        hash: sha256('x'),
        tempKey,
        hashKey: sha256(`${tempKey}|not-the-secret`),
      });
      expect(badHashKey.result).toMatchObject({ resultCode: '401', resultData: '' });

      const res = await fetch(`${gw}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":',
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as Json).error).toEqual({
        code: -32700,
        message: 'Parse error',
        msg: 'Parse error',
      });
      const wrongType = await rpc(gw, '/token', 'getBalance', { address: 42 });
      expect(wrongType.error.code).toBe(-32602);
    });

    it('routes /token/erc20 to the ERC-20 server and serves both OpenRPC documents', async () => {
      const gw = stack().gatewayUrl;
      const names = (doc: Json) => doc.result.methods.map((m: { name: string }) => m.name);
      const token = names(await rpc(gw, '/token', 'rpc.discover'));
      expect(token).toEqual(expect.arrayContaining(['transfer', 'createToken']));
      const erc20 = names(await rpc(gw, '/token/erc20', 'rpc.discover'));
      expect(erc20).toContain('transferFrom');
      expect(erc20).not.toContain('createToken');
    });

    it('sends 30 concurrent transfers from three addresses: all mined, nonces without a gap', async () => {
      const { gatewayUrl: gw, chainUrl } = stack();
      const senders = await Promise.all([0, 1, 2].map(() => newWallet(gw)));
      const startNonces = await Promise.all(
        senders.map(async (w) =>
          Number(
            BigInt(await chainCall(chainUrl, 'eth_getTransactionCount', [w.address, 'latest'])),
          ),
        ),
      );
      const sends = senders.flatMap((wallet, s) =>
        Array.from({ length: 10 }, (_, i) => ({
          sender: s,
          answer: transfer(gw, wallet, TO, String(1000 + i)),
        })),
      );
      const answers = await Promise.all(sends.map((x) => x.answer));
      expect(answers.filter((a) => a.result?.resultCode !== '200')).toEqual([]);
      const hashes = answers.map((a) => a.result.TransactionID as string);
      expect(new Set(hashes).size).toBe(30);
      const nonces: number[][] = [[], [], []];
      for (const [k, hash] of hashes.entries()) {
        const receipt = await waitFor(
          () => chainCall(chainUrl, 'eth_getTransactionReceipt', [hash]),
          { what: `the receipt of ${hash}`, intervalMs: 25 },
        );
        expect(receipt.status).toBe('0x1');
        const tx = await chainCall(chainUrl, 'eth_getTransactionByHash', [hash]);
        nonces[sends[k]!.sender]!.push(Number(BigInt(tx.nonce)));
      }
      nonces.forEach((list, s) => {
        list.sort((a, b) => a - b);
        expect(list).toEqual(Array.from({ length: 10 }, (_, i) => startNonces[s]! + i));
      });
    }, 120_000);
  });
};
