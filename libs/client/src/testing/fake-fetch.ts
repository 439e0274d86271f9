import type { FetchLike } from '../types.js';

/** One request the fake fetch saw. */
export interface SeenRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface FakeAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Test helper: a fetch that records requests and answers each with `answer(request)` (JSON unless
 * the body is a string). Pure-logic unit tests only; integration tests use the real stack.
 */
export function fakeFetch(answer: (request: SeenRequest) => FakeAnswer | Promise<FakeAnswer>): {
  fetch: FetchLike;
  seen: SeenRequest[];
} {
  const seen: SeenRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [
        k.toLowerCase(),
        v,
      ]),
    );
    const request: SeenRequest = {
      url,
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    seen.push(request);
    const { status = 200, body, headers: out = {} } = await answer(request);
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(text === '' ? null : text, { status, headers: out });
  };
  return { fetch, seen };
}

/** A JSON-RPC success answer for the request `request`. */
export function rpcResult(request: SeenRequest, result: Record<string, unknown>): FakeAnswer {
  const id = (request.body as { id: number }).id;
  return {
    body: {
      jsonrpc: '2.0',
      id,
      result: { resultCode: '200', resultMessage: 'Success', ...result },
    },
  };
}
