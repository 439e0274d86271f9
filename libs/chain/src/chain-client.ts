import { inSpan } from '@itp/service-kit';
import { ChainCircuitOpenError, ChainRpcError, ChainUnavailableError } from './chain-errors.js';
import { CircuitBreaker, type CircuitBreakerOptions } from './circuit-breaker.js';
import { parseRpcUrl } from './rpc-url.js';

/** Raw Ethereum JSON-RPC access to one node. */
export interface ChainClient {
  /** One JSON-RPC call; resolves with `result`, rejects with ChainRpcError / ChainUnavailableError. */
  request<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** The node's chain id, asked once and cached (a failed ask is retried on the next call). */
  chainId(): Promise<number>;
  /** Resolves when the node answers eth_blockNumber with a block number. */
  ping(): Promise<void>;
  /** Refuses further calls; calls in flight end within their timeout. */
  close(): Promise<void>;
}

export interface ChainClientOptions {
  /** http(s) URL of the node; `user:password@` becomes a Basic authorization header. */
  rpcUrl: string;
  /** Bound for one whole call (connect, answer, body). Default 10 000 ms. */
  timeoutMs?: number;
  /**
   * The node's circuit breaker (circuit-breaker.ts): after `failureThreshold` (3) consecutive
   * timeouts or connection failures, calls are refused at once (ChainCircuitOpenError, 503 with
   * Retry-After) for `cooldownMs` (5 s), then one probe decides. `false`: none.
   */
  breaker?: CircuitBreakerOptions | false;
}

const NO_PARAMS: readonly unknown[] = [];

/** A JSON-RPC quantity (`0x`-hex) as a safe integer, else a ChainUnavailableError. */
export function parseQuantity(value: unknown, what: string): number {
  const n = typeof value === 'string' && /^0x[0-9a-fA-F]{1,13}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new ChainUnavailableError(`invalid ${what} answer`);
  return n;
}

// Duck-typed: fetch's DOMException and TypeError may come from another realm than `Error`.
function networkReason(err: unknown, timeoutMs: number): string {
  const { name, cause } = (err ?? {}) as { name?: unknown; cause?: { code?: unknown } };
  if (name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  if (name === 'AbortError') return 'request aborted';
  if (typeof cause?.code === 'string') return `connection failed (${cause.code})`;
  return 'request failed';
}

function answerOf<T>(method: string, status: number, text: string): T {
  const httpOk = status >= 200 && status < 300;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ChainUnavailableError(httpOk ? 'answer is not JSON' : `HTTP ${status}`);
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const { error } = body as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    if (error && typeof error === 'object' && typeof error.code === 'number') {
      const message = typeof error.message === 'string' ? error.message : '';
      throw new ChainRpcError(method, error.code, message, error.data);
    }
    if (httpOk && 'result' in body) return (body as { result: T }).result;
  }
  throw new ChainUnavailableError(httpOk ? 'answer is not a JSON-RPC response' : `HTTP ${status}`);
}

/**
 * A JSON-RPC client over the global fetch (undici pools keep-alive connections per origin), with
 * one AbortSignal timeout per call and a circuit breaker in front of the node (a node that stopped
 * answering costs the first few calls their timeout, the next ones nothing: 503 at once). Error
 * messages never contain the URL.
 */
export function createChainClient(options: ChainClientOptions): ChainClient {
  const { url, authorization } = parseRpcUrl(options.rpcUrl);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (authorization) headers.authorization = authorization;
  let nextId = 1;
  let closed = false;
  let cachedChainId: Promise<number> | undefined;
  const breaker = options.breaker === false ? undefined : new CircuitBreaker(options.breaker);
  let lastFailure: string | undefined;

  async function request<T = unknown>(
    method: string,
    params: readonly unknown[] = NO_PARAMS,
  ): Promise<T> {
    if (closed) throw new ChainUnavailableError('client closed');
    const admission = breaker?.admit() ?? { admitted: true, probe: false };
    if (!admission.admitted) {
      throw new ChainCircuitOpenError(admission.failures, admission.retryAfterMs, lastFailure);
    }
    let answered: [number, string];
    try {
      answered = await call(method, params);
    } catch (err) {
      // A timeout or a connection failure: what the breaker counts.
      lastFailure = err instanceof ChainUnavailableError ? err.reason : undefined;
      breaker?.failure(admission.probe);
      throw err;
    }
    // The node answered over HTTP (an error page or a JSON-RPC error too): it is up.
    breaker?.success(admission.probe);
    return answerOf<T>(method, answered[0], answered[1]);
  }

  /** One HTTP exchange; a timeout or a connection failure is a ChainUnavailableError. */
  async function call(method: string, params: readonly unknown[]): Promise<[number, string]> {
    const id = nextId;
    nextId = nextId === Number.MAX_SAFE_INTEGER ? 1 : nextId + 1;
    let status: number;
    let text: string;
    try {
      [status, text] = await inSpan(
        `chain ${method}`,
        { attributes: { 'rpc.system': 'jsonrpc', 'rpc.method': method } },
        async () => {
          const res = await fetch(url, {
            method: 'POST',
            headers,
            body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
            signal: AbortSignal.timeout(timeoutMs),
          });
          return [res.status, await res.text()] as const;
        },
      );
    } catch (err) {
      throw new ChainUnavailableError(networkReason(err, timeoutMs), { cause: err });
    }
    return [status, text];
  }

  function chainId(): Promise<number> {
    if (!cachedChainId) {
      const asked = request('eth_chainId').then((v) => parseQuantity(v, 'eth_chainId'));
      cachedChainId = asked;
      asked.catch(() => {
        if (cachedChainId === asked) cachedChainId = undefined;
      });
    }
    return cachedChainId;
  }

  async function ping(): Promise<void> {
    parseQuantity(await request('eth_blockNumber'), 'eth_blockNumber');
  }

  async function close(): Promise<void> {
    closed = true;
  }

  return { request, chainId, ping, close };
}
