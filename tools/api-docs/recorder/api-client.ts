/** A small HTTP client for the recorder: REST calls and JSON-RPC calls through the gateway. */

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

export interface SendOptions {
  /** A JSON body (serialised here). */
  json?: unknown;
  /** A body sent as is (malformed JSON, an oversized body, …). */
  raw?: string | Uint8Array;
  /** Default `application/json` when there is a body. */
  contentType?: string;
  bearer?: string;
  basic?: { id: string; secret: string };
}

/** The `result` member of a JSON-RPC answer. */
export interface RpcResult {
  resultCode: string;
  resultMessage: string;
  TransactionID?: string;
  resultData: unknown;
}

export class ApiClient {
  private nextId = 1;

  constructor(readonly baseUrl: string) {}

  async send(method: 'GET' | 'POST', path: string, options: SendOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const body = options.json !== undefined ? JSON.stringify(options.json) : options.raw;
    if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    if (options.basic) {
      const credentials = Buffer.from(`${options.basic.id}:${options.basic.secret}`);
      headers.authorization = `Basic ${credentials.toString('base64')}`;
    }
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        throw new Error(`${method} ${path}: HTTP ${res.status} with a body that is no JSON`);
      }
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  /** One JSON-RPC call; resolves with `result`, throws on a protocol error. */
  async rpc(path: '/token' | '/token/erc20', method: string, params: unknown): Promise<RpcResult> {
    const answer = await this.send('POST', path, {
      json: { jsonrpc: '2.0', id: this.nextId++, method, params },
    });
    const body = answer.body as { result?: RpcResult; error?: unknown } | undefined;
    if (answer.status !== 200 || !body?.result) {
      throw new Error(`${path} ${method}: HTTP ${answer.status} ${JSON.stringify(body?.error)}`);
    }
    return body.result;
  }
}
