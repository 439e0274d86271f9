import { randomBytes } from 'node:crypto';
import { SigningKey, Wallet } from 'ethers';
import { sendJson, startTestServer, type TestServer } from './http-server.js';

export interface StandInAccount {
  address: string;
  secretKey: string;
  privateKey: string;
}

export interface WalletStandIn extends TestServer {
  /** Like token-rpc's createAddress: a new key and its secretKey. */
  createAddress(): StandInAccount;
  /** How many sign-digest calls were answered. */
  signatures(): number;
}

/**
 * A stand-in for token-rpc's internal wallet API (`/internal/v1/wallet/verify-secret` and
 * `/sign-digest`, bearer token), speaking exactly the documented contract, for did-service
 * tests while token-rpc is built in parallel. Keys are real secp256k1 keys (ethers).
 */
export async function startWalletStandIn(internalApiToken: string): Promise<WalletStandIn> {
  const accounts = new Map<string, StandInAccount>();
  let signed = 0;
  const server = await startTestServer((req, body, res) => {
    if (req.headers.authorization !== `Bearer ${internalApiToken}`) {
      sendJson(res, 401, {
        error: { code: '401', message: 'Internal API token missing or wrong' },
      });
      return;
    }
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(body) as Record<string, unknown>;
    } catch {
      sendJson(res, 400, { error: { code: '400', message: 'Malformed JSON body' } });
      return;
    }
    const account = accounts.get(String(parsed.address ?? '').toLowerCase());
    if (req.url === '/internal/v1/wallet/verify-secret') {
      if (!account || account.secretKey !== parsed.secretKey) {
        sendJson(res, 401, {
          error: { code: '401', message: 'address and secretKey do not match' },
        });
        return;
      }
      sendJson(res, 200, {
        address: account.address,
        publicKeyHex: new SigningKey(account.privateKey).publicKey,
      });
      return;
    }
    if (req.url === '/internal/v1/wallet/sign-digest') {
      if (!account) {
        sendJson(res, 404, { error: { code: '404', message: 'unknown address' } });
        return;
      }
      const signature = new SigningKey(account.privateKey).sign(String(parsed.digest));
      signed += 1;
      sendJson(res, 200, {
        signature: signature.serialized,
        r: signature.r,
        s: signature.s,
        recoveryParam: signature.yParity,
      });
      return;
    }
    sendJson(res, 404, { error: { code: '404', message: 'no route' } });
  });
  return {
    ...server,
    createAddress: () => {
      const wallet = Wallet.createRandom();
      const account = {
        address: wallet.address,
        secretKey: randomBytes(32).toString('hex'),
        privateKey: wallet.privateKey,
      };
      accounts.set(wallet.address.toLowerCase(), account);
      return account;
    },
    signatures: () => signed,
  };
}
