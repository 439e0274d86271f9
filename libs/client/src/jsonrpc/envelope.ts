import { restError, restErrorOf, rpcError, serviceError } from '../errors/error-map.js';
import { UnexpectedResponseError } from '../errors/error-classes.js';
import { retryAfterFromMessage } from '../http/retry-after.js';

/** A JSON-RPC 2.0 request (docs/api.md §4.1). */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: number;
  method: string;
  params?: unknown;
}

export function jsonRpcRequest(id: number, method: string, params?: unknown): JsonRpcRequest {
  return params === undefined
    ? { jsonrpc: '2.0', id, method }
    : { jsonrpc: '2.0', id, method, params };
}

/** `result` of a successful call: resultData, and TransactionID for transactions. */
export interface JsonRpcSuccess {
  resultData: unknown;
  transactionId?: string;
}

export interface JsonRpcAnswer {
  /** `/token`, `/token/erc20` or `/block` */
  path: string;
  method: string;
  id: number;
  status: number;
  body: unknown;
  retryAfter?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads the answer of one JSON-RPC call: `result` with resultCode "200" → its resultData (and
 * TransactionID); `result` with another resultCode → the service error class of that code;
 * `error` → the protocol error class of its integer code. A REST-shaped error (the gateway's own
 * 413 / 429 …) is mapped as REST; anything else is UnexpectedResponseError.
 */
export function readJsonRpcAnswer(answer: JsonRpcAnswer): JsonRpcSuccess {
  const { path, method, id, status, body } = answer;
  const unexpected = (why: string): UnexpectedResponseError =>
    new UnexpectedResponseError(`${path} ${method}: ${why}`, {
      source: 'client',
      status,
      operation: method,
      data: body,
    });

  if (isRecord(body) && body['jsonrpc'] === '2.0') {
    if (body['id'] !== id && body['id'] !== null)
      throw unexpected(`answer for id ${String(body['id'])}, not ${id}`);
    const error = body['error'];
    if (isRecord(error) && typeof error['code'] === 'number') {
      const text = error['message'] ?? error['msg'];
      throw rpcError({
        method,
        code: error['code'],
        message: typeof text === 'string' ? text : `JSON-RPC error ${error['code']}`,
        data: error['data'],
        status,
      });
    }
    const result = body['result'];
    if (isRecord(result) && typeof result['resultCode'] === 'string') {
      if (result['resultCode'] !== '200') {
        const resultMessage =
          typeof result['resultMessage'] === 'string' ? result['resultMessage'] : '';
        throw serviceError({
          path,
          method,
          resultCode: result['resultCode'],
          resultMessage,
          status,
          retryAfter: answer.retryAfter ?? retryAfterFromMessage(resultMessage),
        });
      }
      const transactionId = result['TransactionID'];
      return typeof transactionId === 'string'
        ? { resultData: result['resultData'], transactionId }
        : { resultData: result['resultData'] };
    }
    throw unexpected('neither result with resultCode nor error');
  }
  if (restErrorOf(body)) throw restError({ path, status, body, retryAfter: answer.retryAfter });
  throw unexpected(`no JSON-RPC answer (HTTP ${status})`);
}
