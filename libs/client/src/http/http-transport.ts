import {
  AbortedError,
  NetworkError,
  TimeoutError,
  type StepUpRequiredError,
} from '../errors/error-classes.js';
import type { CallOptions, ClientOptions, FetchLike } from '../types.js';
import { deadline } from './deadline.js';
import { parseRetryAfter } from './retry-after.js';

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** path below the base URL, e.g. `/v2/auth/auth-user` */
  path: string;
  body?: unknown;
  /** `accept` header (default application/json) */
  accept?: string;
  /** an Authorization header value set by the caller (Basic client credentials) */
  authorization?: string;
  /** send the bearer JWT (the call's, else the client's) when there is one */
  bearer?: boolean;
}

export interface HttpAnswer {
  status: number;
  /** the parsed JSON body; undefined for an empty body; the text when it is no JSON */
  body: unknown;
  /** true when the body was text that is not JSON */
  notJson: boolean;
  retryAfter: number | undefined;
  /** the `WWW-Authenticate` header (a 401's challenge), when there was one */
  wwwAuthenticate: string | undefined;
}

/**
 * One HTTP exchange with the gateway: JSON in, JSON out, the client's and the call's headers,
 * timeout and abort. Failures without an answer become NetworkError, TimeoutError or
 * AbortedError; answers (any status) are returned for the API layer to read.
 *
 * It holds the client's bearer JWT, which a step-up (`reauthenticate`) may replace.
 */
export class HttpTransport {
  private readonly baseUrl: string;
  private readonly fetchFn: FetchLike;
  /** The reauthentication under way, for the token it replaces (one prompt for many calls). */
  private reauthenticating: { refused: string; token: Promise<string | undefined> } | undefined;

  constructor(
    private readonly options: ClientOptions,
    private token: string | undefined,
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const fetchFn = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (!fetchFn)
      throw new TypeError('no fetch: pass options.fetch (this runtime has no global fetch)');
    this.fetchFn = fetchFn;
  }

  /** The same transport with another bearer JWT. */
  withToken(token: string | undefined): HttpTransport {
    return new HttpTransport(this.options, token);
  }

  /** Whether a bearer JWT would go with a `bearer` request (the call's, else the client's). */
  hasBearer(call: CallOptions = {}): boolean {
    return this.bearerOf(call) !== undefined;
  }

  /** The bearer JWT a `bearer` request sends now: the call's, else the client's. */
  bearerOf(call: CallOptions = {}): string | undefined {
    return call.token ?? this.token;
  }

  /**
   * A new JWT after a step-up challenge to a request that sent `refused`, from the client's
   * `reauthenticate` (undefined without one, or when it gives none). The client keeps the new
   * JWT when `refused` was its own; a call's own `token` is replaced for the retry only. Calls
   * refused at the same time with the same JWT share one reauthentication, and a call refused
   * with a JWT the client has replaced since gets the replacement without asking again.
   * What `reauthenticate` throws is thrown.
   */
  async reauthenticate(
    challenge: StepUpRequiredError,
    refused: string,
    call: CallOptions = {},
  ): Promise<string | undefined> {
    const reauthenticate = this.options.reauthenticate;
    if (!reauthenticate) return undefined;
    const own = call.token === undefined;
    if (own && this.token !== undefined && this.token !== refused) return this.token;
    let pending = this.reauthenticating;
    if (pending?.refused !== refused) {
      const token = Promise.resolve()
        .then(() => reauthenticate(challenge))
        .finally(() => {
          if (this.reauthenticating?.token === token) this.reauthenticating = undefined;
        });
      pending = { refused, token };
      this.reauthenticating = pending;
    }
    const token = await pending.token;
    if (!token) return undefined;
    if (own && this.token === refused) this.token = token;
    return token;
  }

  async send(request: HttpRequest, call: CallOptions = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = {
      accept: request.accept ?? 'application/json',
      ...this.options.headers,
      ...call.headers,
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const bearer = this.bearerOf(call);
    if (request.authorization) headers['authorization'] = request.authorization;
    else if (request.bearer && bearer) headers['authorization'] = `Bearer ${bearer}`;

    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const limit = deadline(call.signal, timeoutMs);
    const operation = request.path;
    try {
      const response = await this.fetchFn(`${this.baseUrl}${request.path}`, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: limit.signal,
      });
      const text = await response.text();
      let body: unknown = undefined;
      let notJson = false;
      if (text.length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
          notJson = true;
        }
      }
      return {
        status: response.status,
        body,
        notJson,
        retryAfter: parseRetryAfter(response.headers.get('retry-after')),
        wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined,
      };
    } catch (err) {
      if (limit.timedOut()) {
        throw new TimeoutError(`no answer from ${operation} within ${timeoutMs} ms`, {
          source: 'client',
          operation,
          cause: err,
        });
      }
      if (call.signal?.aborted) {
        throw new AbortedError('aborted by the caller', {
          source: 'client',
          operation,
          cause: call.signal.reason,
        });
      }
      const reason = err instanceof Error ? err.message : String(err);
      throw new NetworkError(`${request.method} ${this.baseUrl}${operation} failed: ${reason}`, {
        source: 'client',
        operation,
        cause: err,
      });
    } finally {
      limit.clear();
    }
  }
}
