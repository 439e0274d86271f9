/** A JSON-RPC id as the protocol allows it. */
export type RpcId = string | number | null;

/** A request object that passed the envelope checks. */
export interface CheckedRequest {
  method: string;
  /** `undefined` when the member was omitted. */
  params: unknown;
  /** False for a notification (no `id` member at all). `"id": null` is a call and is answered. */
  hasId: boolean;
  id: RpcId;
}

export type RequestCheck =
  { ok: true; request: CheckedRequest } | { ok: false; id: RpcId; reason: string };

function isValidId(id: unknown): id is RpcId {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

/**
 * Checks one request object of JSON-RPC 2.0 §4. Members other than jsonrpc/method/params/id are
 * ignored (liberal reading). On failure the answer's id is the request's id when that id is itself
 * valid, else null.
 */
export function checkRequest(item: unknown): RequestCheck {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    return { ok: false, id: null, reason: 'a request must be a JSON object' };
  }
  const obj = item as Record<string, unknown>;
  const hasId = Object.hasOwn(obj, 'id');
  const id = obj['id'];
  const echoId = hasId && isValidId(id) ? id : null;
  if (obj['jsonrpc'] !== '2.0') {
    return { ok: false, id: echoId, reason: 'jsonrpc must be exactly "2.0"' };
  }
  const method = obj['method'];
  if (typeof method !== 'string') {
    return { ok: false, id: echoId, reason: 'method must be a string' };
  }
  const params = obj['params'];
  if (Object.hasOwn(obj, 'params') && (params === null || typeof params !== 'object')) {
    return { ok: false, id: echoId, reason: 'params must be an object or an array' };
  }
  if (hasId && !isValidId(id)) {
    return { ok: false, id: null, reason: 'id must be a string, an integer or null' };
  }
  return { ok: true, request: { method, params, hasId, id: echoId } };
}
