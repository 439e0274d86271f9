import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { BaseError } from '@itp/errors';
import {
  BadGatewayError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
} from '@itp/errors';
import { bearerToken } from './bearer-token.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { injectTraceHeaders, inSpan } from './tracing/tracing.js';

/**
 * Service-to-service calls (`/internal/v1/...`): served on each service's internal listener
 * (HttpService.internal, INTERNAL_PORT), never routed by the gateway, authenticated with a bearer
 * token per pair of services (INTERNAL_TOKEN_<CALLER>_TO_<CALLEE>, deployment secrets; the dev
 * stack makes random ones per start). A NetworkPolicy admits only the caller to that port
 * (docs/security.md).
 */
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * 401 unless the bearer is one of `tokens` (the caller's token and, during a rotation,
 * INTERNAL_API_ACCEPTED_TOKENS). The presented token is compared with every accepted one in
 * constant time, without stopping at a match, so the answer time does not tell which matched.
 */
export function requireInternalToken(tokens: string | readonly string[]): RequestHandler {
  const list = typeof tokens === 'string' ? [tokens] : tokens;
  if (list.length === 0 || list.some((t) => t.length === 0)) {
    throw new Error('requireInternalToken needs at least one non-empty token');
  }
  const expected = list.map(digest);
  return (req, _res, next) => {
    const presented = bearerToken(req) ?? '';
    const given = digest(presented);
    let match = false;
    for (const candidate of expected) match = timingSafeEqual(given, candidate) || match;
    if (!presented || !match) {
      next(new UnauthorizedError('Internal API token missing or wrong'));
      return;
    }
    next();
  };
}

export interface InternalClientOptions {
  /** Base URL of the other service, e.g. http://token-rpc:8083 */
  baseUrl: string;
  token: string;
  /** Name used in error messages, e.g. "token-rpc". */
  service: string;
  timeoutMs?: number;
}

const byStatus: Record<number, new (message: string) => BaseError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
};

/**
 * A small JSON client for the internal API of another service. A REST error answer becomes the
 * matching BaseError (same status and message); a network failure, a timeout or an upstream
 * 503/504 becomes a 503, any other upstream failure a 502.
 */
export class InternalClient {
  constructor(private readonly options: InternalClientOptions) {}

  async post<T>(path: string, body: unknown, requestId?: string): Promise<T> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${this.options.token}`,
    };
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    let res: Response;
    try {
      res = await inSpan(
        `POST ${this.options.service}${path}`,
        { attributes: { 'http.request.method': 'POST', 'server.service': this.options.service } },
        () => {
          injectTraceHeaders(headers);
          return fetch(new URL(path, this.options.baseUrl), {
            method: 'POST',
            headers,
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
          });
        },
      );
    } catch (err) {
      throw new ServiceUnavailableError(`${this.options.service} is unavailable`, { cause: err });
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new BadGatewayError(`${this.options.service} answered something that is not JSON`);
    }
    if (res.ok) return parsed as T;
    const message =
      (parsed as { error?: { message?: unknown } } | undefined)?.error?.message ??
      `${this.options.service} failed`;
    if (res.status === 429) {
      throw new TooManyRequestsError(
        String(message),
        Number(res.headers.get('retry-after') ?? '1'),
      );
    }
    const ErrorClass = byStatus[res.status];
    if (ErrorClass) throw new ErrorClass(String(message));
    // The other service is down or overloaded (503/504): so is this request, retry later. Any other
    // answer (a 500, an unexpected status) is the other service's fault: a 502, never our 500.
    if (res.status === 503 || res.status === 504) {
      const retryAfter = Number(res.headers.get('retry-after'));
      throw new ServiceUnavailableError(`${this.options.service} is unavailable (${res.status})`, {
        retryAfterSeconds: retryAfter > 0 ? retryAfter : undefined,
      });
    }
    throw new BadGatewayError(`${this.options.service} failed (${res.status})`);
  }
}
