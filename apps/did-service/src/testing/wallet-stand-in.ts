import { randomBytes } from 'node:crypto';
import { SigningKey, Wallet, getAddress, isAddress, sha256, toUtf8Bytes } from 'ethers';
import { sendJson, startTestServer, type TestServer } from './http-server.js';

export interface StandInAccount {
  address: string;
  secretKey: string;
  privateKey: string;
}

export interface WalletStandIn extends TestServer {
  /** Like token-rpc's createAddress: a new key and its secretKey. */
  createAddress(): StandInAccount;
  /** How many sign-jws calls were answered with a signature. */
  signatures(): number;
}

function jsonObject(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why token-rpc would refuse to sign `signingInput` for `address` (its jws-signing rules: two
 * base64url parts, JSON object header with alg ES256K / ES256K-R and no `b64: false`, JSON object
 * payload whose iss is the address's DID), or the alg it signs with.
 */
function jwsCheck(
  address: string,
  signingInput: string,
): { refusal: string } | { alg: 'ES256K' | 'ES256K-R' } {
  const parts = signingInput.split('.');
  if (parts.length !== 2 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) {
    return { refusal: 'signingInput must be base64url(header).base64url(payload)' };
  }
  const header = jsonObject(parts[0] as string);
  const payload = jsonObject(parts[1] as string);
  if (!header || !payload) return { refusal: 'the JWS header and payload must be JSON objects' };
  if (header.alg !== 'ES256K' && header.alg !== 'ES256K-R') {
    return { refusal: "the JWS header's alg must be one of ES256K, ES256K-R" };
  }
  if (header.b64 !== undefined && header.b64 !== true) {
    return { refusal: 'unencoded JWS payloads (b64: false) are not signed' };
  }
  const iss = typeof payload.iss === 'string' ? payload.iss : '';
  // did:ethr:<address> or did:ethr:<network>:<address>, as token-rpc accepts.
  const issAddress = /^did:ethr:(?:[A-Za-z0-9_.-]+:)?(0x[0-9a-fA-F]{40})$/.exec(iss)?.[1] ?? '';
  if (
    !isAddress(issAddress) ||
    !isAddress(address) ||
    getAddress(issAddress) !== getAddress(address)
  ) {
    return { refusal: "the JWS payload's iss must be the DID of the address" };
  }
  return { alg: header.alg };
}

/**
 * A stand-in for token-rpc's internal wallet API (`/internal/v1/wallet/register-did` and
 * `/sign-jws`, bearer token), speaking exactly the documented contract and enforcing the same
 * rules and order (ES256K / ES256K-R JWS only, `iss` = the address's DID: 400; unknown address:
 * 404; not registered: 403), for did-service
 * tests that need no chain-side wallet. Keys are real secp256k1 keys (ethers).
 */
export async function startWalletStandIn(internalApiToken: string): Promise<WalletStandIn> {
  const accounts = new Map<string, StandInAccount>();
  const registered = new Set<string>();
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
    if (req.url === '/internal/v1/wallet/register-did') {
      if (!account || account.secretKey !== parsed.secretKey) {
        sendJson(res, 401, {
          error: { code: '401', message: 'address and secretKey do not match' },
        });
        return;
      }
      registered.add(account.address);
      sendJson(res, 200, {
        address: account.address,
        publicKeyHex: new SigningKey(account.privateKey).publicKey,
      });
      return;
    }
    if (req.url === '/internal/v1/wallet/sign-jws') {
      const signingInput = String(parsed.signingInput ?? '');
      const checked = jwsCheck(String(parsed.address ?? ''), signingInput);
      if ('refusal' in checked) {
        sendJson(res, 400, { error: { code: '400', message: checked.refusal } });
        return;
      }
      if (!account) {
        sendJson(res, 404, { error: { code: '404', message: 'unknown address' } });
        return;
      }
      if (!registered.has(account.address)) {
        sendJson(res, 403, { error: { code: '403', message: 'address has no DID' } });
        return;
      }
      const digest = sha256(toUtf8Bytes(signingInput));
      const signature = new SigningKey(account.privateKey).sign(digest);
      signed += 1;
      const rs = [signature.r, signature.s].map((h) => Buffer.from(h.slice(2), 'hex'));
      if (checked.alg === 'ES256K-R') rs.push(Buffer.from([signature.yParity]));
      sendJson(res, 200, {
        signature: Buffer.concat(rs).toString('base64url'),
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
