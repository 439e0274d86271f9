import { createHash } from 'node:crypto';
import { parseJson, send, type Answer } from './http.js';

export type Json = Record<string, unknown>;

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A REST answer with its parsed body. */
export interface RestAnswer extends Answer {
  body: unknown;
}

/** A JSON-RPC answer: the envelope's result (resultCode …) or error. */
export interface RpcAnswer extends Answer {
  result?: {
    resultCode?: string;
    resultMessage?: string;
    resultData?: unknown;
    TransactionID?: string;
  };
  rpcError?: { code: number; message: string };
}

/**
 * The public API through the gateway, as one client address (`ip`, sent as X-Forwarded-For: the
 * stack trusts loopback hops, so each of the suite's clients has its own rate-limit counters).
 */
export class Api {
  constructor(
    readonly base: string,
    readonly ip: string,
  ) {}

  async rest(
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RestAnswer> {
    const answer = await send(this.base, path, {
      method: body === undefined ? 'GET' : 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': this.ip, ...headers },
    });
    return { ...answer, body: parseJson(answer.text) };
  }

  /** POSTs `text` as it is (a body JSON.stringify could not make, e.g. 50,000 levels deep). */
  async raw(path: string, text: string): Promise<RestAnswer> {
    const answer = await send(this.base, path, {
      body: text,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': this.ip },
    });
    return { ...answer, body: parseJson(answer.text) };
  }

  /**
   * One JSON-RPC call. `timeoutMs`: give up after that long (status 0, error set), so that a hang
   * is seen as one instead of holding the caller up to the suite's HTTP timeout.
   */
  async rpc(path: string, method: string, params: unknown, timeoutMs?: number): Promise<RpcAnswer> {
    const answer = await send(this.base, path, {
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': this.ip },
      ...(timeoutMs === undefined ? {} : { timeoutMs: Math.max(1, Math.round(timeoutMs)) }),
    });
    const parsed = parseJson(answer.text) as
      { result?: RpcAnswer['result']; error?: RpcAnswer['rpcError'] } | undefined;
    return { ...answer, result: parsed?.result, rpcError: parsed?.error };
  }

  /** resultData of a successful call; throws with the answer otherwise. */
  async ok<T = Json>(path: string, method: string, params: unknown): Promise<T> {
    const answer = await this.rpc(path, method, params);
    if (answer.result?.resultCode !== '200') {
      throw new Error(
        `${method}: ${answer.status} ${answer.error ?? ''} ${answer.text.slice(0, 300)}`,
      );
    }
    return answer.result.resultData as T;
  }

  login(id: string, password: string): Promise<RestAnswer> {
    return this.rest('/v2/auth/auth-user', { id, password });
  }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
});
