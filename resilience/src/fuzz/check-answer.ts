import { AUTH_ERRORS, DID_ERRORS } from '@itp/schemas';
import { parseJson, type Answer } from '../client/http.js';

/** What one answer was, for the figures: fine, or which rule it broke. */
export type Verdict =
  'ok' | 'no-answer' | '5xx' | 'undocumented-shape' | 'undocumented-code' | 'internal-error';

/** (HTTP status, error.code) pairs the gateway itself answers on any path (apps/gateway/README.md). */
const GATEWAY_ERRORS = new Set(['404:404', '405:405', '413:413', '400:400', '414:414', '431:431']);
const REST_ERRORS = {
  auth: new Set([...Object.values(AUTH_ERRORS)].map((e) => `${e.status}:${e.code}`)),
  did: new Set([...Object.values(DID_ERRORS)].map((e) => `${e.status}:${e.code}`)),
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{ error: { code: string, message: string } }` and nothing else. */
function isRestError(body: unknown): body is { error: { code: string; message: string } } {
  if (!isRecord(body) || Object.keys(body).join() !== 'error' || !isRecord(body.error))
    return false;
  const { code, message } = body.error;
  return typeof code === 'string' && typeof message === 'string';
}

/** `{ error: string, error_description: string }` and nothing else (OAuth 2.0 §5.2). */
function isOAuthError(body: unknown): body is { error: string; error_description: string } {
  return (
    isRecord(body) &&
    Object.keys(body).sort().join() === 'error,error_description' &&
    typeof body.error === 'string' &&
    typeof body.error_description === 'string'
  );
}

/**
 * A REST answer (/v2/auth/*, /v2/did/*): never 5xx, and every error in the shape and with a code
 * of its API's catalog (or the gateway's own). `outage` allows 503 (a fault is under way). An
 * endpoint with OAuth-style errors (`oauthErrors`: its documented `status:error` pairs) answers
 * those in the OAuth shape; what the gateway answers itself stays in the REST shape.
 */
export function checkRest(
  api: 'auth' | 'did',
  answer: Answer,
  outage = false,
  oauthErrors?: ReadonlySet<string>,
): Verdict {
  if (answer.error) return 'no-answer';
  if (answer.status >= 500 && !(outage && answer.status === 503)) return '5xx';
  if (answer.status < 400) return 'ok';
  const body = parseJson(answer.text);
  if (oauthErrors && isOAuthError(body)) {
    return oauthErrors.has(`${answer.status}:${body.error}`) ? 'ok' : 'undocumented-code';
  }
  if (!isRestError(body)) return 'undocumented-shape';
  const pair = `${answer.status}:${body.error.code}`;
  if (body.error.code !== String(answer.status) && !REST_ERRORS[api].has(pair)) {
    return 'undocumented-code';
  }
  if (!REST_ERRORS[api].has(pair) && !GATEWAY_ERRORS.has(pair) && !(outage && pair === '503:503')) {
    return 'undocumented-code';
  }
  return 'ok';
}

/** Service error codes (resultCode) that are documented and not a failure of the server. */
const CLIENT_RESULT_CODES = new Set(['200', '400', '401', '402', '403', '404', '409', '429']);

/** One JSON-RPC response object: `{ jsonrpc, id, result }` or `{ jsonrpc, id, error }`. */
function checkRpcObject(item: unknown, outage: boolean): Verdict {
  if (!isRecord(item) || item.jsonrpc !== '2.0' || !('id' in item)) return 'undocumented-shape';
  if ('result' in item === 'error' in item) return 'undocumented-shape';
  if ('error' in item) {
    const error = item.error;
    if (!isRecord(error) || !Number.isInteger(error.code)) return 'undocumented-shape';
    if (typeof error.message !== 'string' || error.msg !== error.message)
      return 'undocumented-shape';
    if (error.code === -32603) return 'internal-error';
    // The gateway's transport error (-32300) means an upstream was down or slow.
    if (error.code === -32300 && !outage) return '5xx';
    return 'ok';
  }
  const result = item.result;
  // rpc.discover answers the OpenRPC document itself.
  if (isRecord(result) && typeof result.openrpc === 'string') return 'ok';
  if (!isRecord(result) || typeof result.resultCode !== 'string') return 'undocumented-shape';
  if (typeof result.resultMessage !== 'string') return 'undocumented-shape';
  if (CLIENT_RESULT_CODES.has(result.resultCode)) return 'ok';
  if (result.resultCode === '503' && outage) return 'ok';
  return result.resultCode === '500' ? 'internal-error' : '5xx';
}

/**
 * A JSON-RPC answer (/token, /token/erc20, /block): HTTP 200 with one response object or a batch
 * array of them, 204 for notifications, or the gateway's REST-shaped 404 / 405 / 413; never a
 * -32603, a resultCode "500" or (outside a fault) "503".
 */
export function checkRpc(answer: Answer, outage = false): Verdict {
  if (answer.error) return 'no-answer';
  if (answer.status === 204) return answer.text === '' ? 'ok' : 'undocumented-shape';
  if (answer.status >= 500)
    return outage && answer.status !== 500 ? checkRpcBody(answer.text, outage) : '5xx';
  if (answer.status !== 200) {
    const body = parseJson(answer.text);
    if (isRestError(body) && body.error.code === String(answer.status)) return 'ok';
    // The JSON-RPC router's own 405 / 413 carry a JSON-RPC error envelope.
    return isRecord(body) && checkRpcObject(body, outage) === 'ok' ? 'ok' : 'undocumented-shape';
  }
  return checkRpcBody(answer.text, outage);
}

function checkRpcBody(text: string, outage: boolean): Verdict {
  const body = parseJson(text);
  if (Array.isArray(body)) {
    if (body.length === 0) return 'undocumented-shape';
    for (const item of body) {
      const verdict = checkRpcObject(item, outage);
      if (verdict !== 'ok') return verdict;
    }
    return 'ok';
  }
  return checkRpcObject(body, outage);
}
