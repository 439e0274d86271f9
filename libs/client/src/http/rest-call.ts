import { restError } from '../errors/error-map.js';
import { UnexpectedResponseError } from '../errors/error-classes.js';
import type { CallOptions } from '../types.js';
import type { HttpRequest, HttpTransport } from './http-transport.js';

/**
 * A REST call of /v2/auth or /v2/did: the parsed body of a 2xx answer (undefined when empty), or
 * the typed error of `{ error: { code, message } }` (by code and endpoint, error-map.ts).
 */
export async function restCall<T>(
  http: HttpTransport,
  request: HttpRequest,
  call?: CallOptions,
): Promise<T> {
  const answer = await http.send(request, call);
  if (answer.status >= 200 && answer.status < 300) {
    if (answer.notJson) {
      throw new UnexpectedResponseError(`${request.path} answered ${answer.status} with no JSON`, {
        source: 'client',
        status: answer.status,
        operation: request.path,
      });
    }
    return answer.body as T;
  }
  throw restError({
    path: request.path,
    status: answer.status,
    body: answer.body,
    retryAfter: answer.retryAfter,
  });
}
