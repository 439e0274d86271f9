/**
 * Plain HTTP and JSON-RPC calls for the suites: what an integrator sends, with nothing of our SDK
 * in between, so a suite sees the exact status, headers and bodies the gateway answers.
 */
import { createHash } from 'node:crypto';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers, checked field by field */
export type Json = any;

export interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export const basicAuth = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** POST `body` (JSON-encoded unless already a string) to `url`; the answer, JSON-parsed when any. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export async function getJson(url: string): Promise<Json> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return res.json();
}

/** A JSON-RPC call to `<base><path>` (HTTP 200 expected); the whole envelope. */
export async function rpc(
  base: string,
  path: '/token' | '/token/erc20' | '/block',
  method: string,
  params?: unknown,
): Promise<Json> {
  const { status, body } = await post(`${base}${path}`, { jsonrpc: '2.0', id: 1, method, params });
  if (status !== 200) throw new Error(`${path} ${method}: HTTP ${status} ${JSON.stringify(body)}`);
  return body;
}

/** A JSON-RPC call that must succeed (resultCode "200"); its resultData. */
export async function ok(
  base: string,
  path: '/token' | '/token/erc20' | '/block',
  method: string,
  params?: unknown,
): Promise<Json> {
  const answer = await rpc(base, path, method, params);
  if (answer.result?.resultCode !== '200') {
    throw new Error(`${method} failed: ${JSON.stringify(answer)}`);
  }
  return answer.result.resultData;
}

/** A JSON-RPC call straight to the chain node; its result. */
export async function chainCall(
  chainUrl: string,
  method: string,
  params: unknown[],
): Promise<Json> {
  const { body } = await post(chainUrl, { jsonrpc: '2.0', id: 1, method, params });
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

export interface Wallet {
  address: string;
  secretKey: string;
}

/** net_getTempKey → hashKey → signData → transfer against one token API base URL; the envelope. */
export async function transfer(
  base: string,
  wallet: Wallet,
  to: string,
  amount: string,
): Promise<Json> {
  const { tempKey } = await ok(base, '/token', 'net_getTempKey', {
    address: wallet.address,
    keyType: 'transfer',
  });
  const hashKey = sha256(`${tempKey}|${wallet.secretKey}`);
  const hash = sha256(`${wallet.address}|${to}|${amount}|${tempKey}|${hashKey}`);
  const signature = await ok(base, '/token', 'signData', {
    from: wallet.address,
    hash,
    tempKey,
    hashKey,
  });
  return rpc(base, '/token', 'transfer', {
    from: wallet.address,
    to,
    amount,
    tempKey,
    hashKey,
    signature,
  });
}
