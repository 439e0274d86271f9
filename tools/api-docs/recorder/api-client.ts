/** A small HTTP client for the recorder: REST calls and JSON-RPC calls through the gateway. */

export interface Answer {
  status: number;
  /** The parsed JSON of a JSON answer, the text of any other, undefined when empty. */
  body: unknown;
  headers: Headers;
}

export interface SendOptions {
  /** A JSON body (serialised here). */
  json?: unknown;
  /** A form body (`application/x-www-form-urlencoded`), as an OpenID4VP wallet posts it. */
  form?: Record<string, string>;
  /** A body sent as is (malformed JSON, an oversized body, …). */
  raw?: string | Uint8Array;
  /** Default `application/json`. */
  accept?: string;
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

/**
 * The body of an answer: parsed when its media type is JSON (`application/json`, `…+json`) or not
 * given, the text of any other (the compact JWT of a request object, …), undefined when empty.
 */
export async function bodyOf(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type');
  if (type && !/^application\/(?:[\w.-]+\+)?json\b/i.test(type)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${what}: HTTP ${res.status} with a body that is no JSON`);
  }
}

export class ApiClient {
  private nextId = 1;

  constructor(readonly baseUrl: string) {}

  async send(method: 'GET' | 'POST', path: string, options: SendOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
    let body: string | Uint8Array | undefined = options.raw;
    let contentType = 'application/json';
    if (options.json !== undefined) body = JSON.stringify(options.json);
    if (options.form !== undefined) {
      body = new URLSearchParams(options.form).toString();
      contentType = 'application/x-www-form-urlencoded';
    }
    if (body !== undefined) headers['content-type'] = options.contentType ?? contentType;
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
    return {
      status: res.status,
      body: await bodyOf(res, `${method} ${path}`),
      headers: res.headers,
    };
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
