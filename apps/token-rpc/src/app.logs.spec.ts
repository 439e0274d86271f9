import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HDNodeWallet } from 'ethers';
import { pino } from 'pino';
import type { RunningAnvil } from '@itp/dev-chain';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  authorize,
  createAddress,
  ok,
  rpc,
  sha256,
  startFundedTestChain,
  startTokenApp,
  transferParams,
  type TestWallet,
  type TokenTestApp,
} from './testing/token-test-kit.js';

/**
 * No private key, mnemonic, secretKey, hashKey or tempKey in the logs at any level: every API path
 * (successes and failures) runs with a trace-level logger WITHOUT redaction, so that nothing is
 * hidden by the second fence (pino's redact paths) and the test proves nothing is logged at all.
 */
describe('token-rpc logs', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let app: TokenTestApp;
  let dataDir: string;
  const lines: string[] = [];
  const secrets: string[] = [];
  let wallet: TestWallet;

  function remember(...values: string[]) {
    for (const value of values) {
      secrets.push(value, value.replace(/^0x/, ''));
    }
  }
  function rememberWallet(w: { mnemonic: string; secretKey: string }) {
    const key = HDNodeWallet.fromPhrase(w.mnemonic);
    remember(w.mnemonic, w.secretKey, key.privateKey);
  }
  function rememberCredentials(c: { tempKey: string; hashKey: string }) {
    remember(c.tempKey, c.hashKey);
  }

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'token-rpc-logs-'));
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix: uniquePrefix('token'),
      appEnv: 'development',
      dataDir,
      logger: pino({ level: 'trace' }, sink),
    });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await chain?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('never logs a secret, on success or failure', async () => {
    wallet = await createAddress(app.url);
    rememberWallet(wallet);
    const imported = await ok(app.url, '/token', 'importAddress', { mnemonic: wallet.mnemonic });
    remember(imported.secretKey);
    wallet = { ...wallet, secretKey: imported.secretKey };

    // A native transfer and its identical retry, then failures: used tempKey, bad hashKey, bad
    // signature (and its replay), too much.
    const params = await transferParams(app.url, wallet, wallet.address, '1');
    rememberCredentials(params as { tempKey: string; hashKey: string });
    expect((await rpc(app.url, '/token', 'transfer', params)).result.resultCode).toBe('200');
    expect((await rpc(app.url, '/token', 'transfer', params)).result.resultCode).toBe('200');
    expect(
      (await rpc(app.url, '/token', 'transfer', { ...params, amount: '2' })).result.resultCode,
    ).toBe('409');
    const bad = await transferParams(app.url, wallet, wallet.address, '1');
    rememberCredentials(bad as { tempKey: string; hashKey: string });
    expect(
      (await rpc(app.url, '/token', 'transfer', { ...bad, hashKey: sha256('x') })).result
        .resultCode,
    ).toBe('401');
    const badSig = await transferParams(app.url, wallet, wallet.address, '1');
    rememberCredentials(badSig as { tempKey: string; hashKey: string });
    expect(
      (await rpc(app.url, '/token', 'transfer', { ...badSig, amount: '2' })).result.resultCode,
    ).toBe('401');
    expect(
      (await rpc(app.url, '/token', 'transfer', { ...badSig, amount: '2' })).result.resultCode,
    ).toBe('401');
    const tooMuch = await transferParams(app.url, wallet, wallet.address, (10n ** 30n).toString());
    rememberCredentials(tooMuch as { tempKey: string; hashKey: string });
    expect((await rpc(app.url, '/token', 'transfer', tooMuch)).result.resultCode).toBe('402');

    // Malformed params that carry secrets: -32602 names fields, never values.
    expect((await rpc(app.url, '/token', 'transfer', { ...params, amount: 'x' })).error.code).toBe(
      -32602,
    );
    const otherPhrase = HDNodeWallet.createRandom().mnemonic?.phrase ?? '';
    remember(otherPhrase);
    expect(
      (await rpc(app.url, '/token', 'importAddress', { mnemonic: `${otherPhrase} extra` })).result
        .resultCode,
    ).toBe('400');

    // createToken and the erc20 writes.
    const token = {
      from: wallet.address,
      name: 'Log Token',
      symbol: 'LOG',
      decimals: 18,
      initialSupply: '1000',
    };
    const tokenCreds = await authorize(app.url, wallet, 'createToken', (t, h) => [
      token.from,
      token.name,
      token.symbol,
      token.decimals,
      token.initialSupply,
      t,
      h,
    ]);
    rememberCredentials(tokenCreds);
    const contract = await ok(app.url, '/token', 'createToken', { ...token, ...tokenCreds });
    for (const method of ['transfer', 'approve'] as const) {
      const creds = await authorize(app.url, wallet, 'erc20', (t, h) => [
        wallet.address,
        contract,
        wallet.address,
        '5',
        t,
        h,
      ]);
      rememberCredentials(creds);
      const answer = await rpc(app.url, '/token/erc20', method, {
        from: wallet.address,
        contract,
        to: wallet.address,
        amount: '5',
        ...creds,
      });
      expect(answer.result.resultCode).toBe('200');
    }

    // The internal API, with the right and a wrong secret.
    const { readFileSync } = await import('node:fs');
    const internalToken = readFileSync(
      join(dataDir, 'secrets', 'internal-token-did-to-token-rpc'),
      'utf8',
    ).trim();
    remember(internalToken);
    for (const secretKey of [wallet.secretKey, 'f'.repeat(64)]) {
      await fetch(`${app.internalUrl}/internal/v1/wallet/register-did`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${internalToken}` },
        body: JSON.stringify({ address: wallet.address, secretKey }),
      });
    }

    const log = lines.join('');
    expect(log).toContain('"level":10'); // trace lines were written
    expect(log).toContain('"level":20'); // and debug lines
    expect(log).toContain('transaction sent');
    expect(log).toContain('JSON-RPC service error');
    for (const secret of secrets.filter((s) => s.length >= 32)) {
      expect({ secret: secret.slice(0, 8), found: log.includes(secret) }).toEqual({
        secret: secret.slice(0, 8),
        found: false,
      });
    }
    // No run of mnemonic words either (a phrase logged with other separators).
    for (const phrase of [wallet.mnemonic, otherPhrase]) {
      const words = phrase.split(' ');
      expect(log.includes(`${words[0]} ${words[1]} ${words[2]}`)).toBe(false);
    }
  });
});
