import { restError } from '../errors/error-map.js';
import { StepUpRequiredError, UnexpectedResponseError } from '../errors/error-classes.js';
import type { CallOptions } from '../types.js';
import type { HttpAnswer, HttpRequest, HttpTransport } from './http-transport.js';

/**
 * A REST call of /v2/auth or /v2/did: the parsed body of a 2xx answer (undefined when empty), or
 * the typed error of `{ error: { code, message } }` (by code and endpoint, error-map.ts).
 *
 * Step-up (RFC 9470): when a request that sent a bearer JWT is answered with the
 * `insufficient_user_authentication` challenge and the client has a `reauthenticate` callback,
 * the callback gives a new JWT and the request is sent once more with it. Only once: a second
 * challenge, or any other failure of the retry, is thrown as it is.
 */
export async function restCall<T>(
  http: HttpTransport,
  request: HttpRequest,
  call: CallOptions = {},
): Promise<T> {
  const bearer = request.bearer && !request.authorization ? http.bearerOf(call) : undefined;
  const answer = await http.send(request, call);
  if (succeeded(answer)) return bodyOf<T>(request, answer);
  const error = errorOf(request, answer);
  if (!(error instanceof StepUpRequiredError) || bearer === undefined) throw error;
  const token = await http.reauthenticate(error, bearer, call);
  if (token === undefined) throw error;
  const retried = await http.send(request, { ...call, token });
  if (succeeded(retried)) return bodyOf<T>(request, retried);
  throw errorOf(request, retried);
}

const succeeded = (answer: HttpAnswer): boolean => answer.status >= 200 && answer.status < 300;

function bodyOf<T>(request: HttpRequest, answer: HttpAnswer): T {
  if (answer.notJson) {
    throw new UnexpectedResponseError(`${request.path} answered ${answer.status} with no JSON`, {
      source: 'client',
      status: answer.status,
      operation: request.path,
    });
  }
  return answer.body as T;
}

function errorOf(request: HttpRequest, answer: HttpAnswer) {
  return restError({
    path: request.path,
    status: answer.status,
    body: answer.body,
    retryAfter: answer.retryAfter,
    wwwAuthenticate: answer.wwwAuthenticate,
  });
}
