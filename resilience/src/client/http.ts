import { Agent, request } from 'undici';

/** One HTTP exchange as the suite saw it; `error` when no HTTP answer came (reset, timeout). */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
  error?: string;
}

/** Keep-alive connections shared by every client of the suite (as a real client pool does). */
const agent = new Agent({ connections: 128, keepAliveTimeout: 4_000, pipelining: 1 });

export interface SendOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  body?: string | Buffer;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export async function send(base: string, path: string, options: SendOptions = {}): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await request(`${base}${path}`, {
      dispatcher: agent,
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: options.headers,
      body: options.body,
      headersTimeout: options.timeoutMs ?? 60_000,
      bodyTimeout: options.timeoutMs ?? 60_000,
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text, ms: Date.now() - started };
  } catch (err) {
    const code = (err as { code?: string }).code;
    return {
      status: 0,
      headers: {},
      text: '',
      ms: Date.now() - started,
      error: code ?? (err instanceof Error ? err.message : String(err)),
    };
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function closeAgent(): Promise<void> {
  await agent.close();
}
