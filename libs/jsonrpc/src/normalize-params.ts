import type { RpcMethod } from './method.js';

export type NormalizedParams = { ok: true; value: unknown } | { ok: false; message: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Brings params into the shape the method's schema validates.
 * - 'object': an object as is; `[ {…} ]` → the object; omitted or `[]` → `{}`.
 * - 'positional': an array as is; omitted → `[]`; an object is refused.
 */
export function normalizeParams(
  style: RpcMethod['paramsStyle'],
  params: unknown,
): NormalizedParams {
  if (style === 'object') {
    if (params === undefined) return { ok: true, value: {} };
    if (isPlainObject(params)) return { ok: true, value: params };
    if (Array.isArray(params)) {
      if (params.length === 0) return { ok: true, value: {} };
      if (params.length === 1 && isPlainObject(params[0])) return { ok: true, value: params[0] };
    }
    return { ok: false, message: 'params must be an object, or an array holding one object' };
  }
  if (params === undefined) return { ok: true, value: [] };
  if (Array.isArray(params)) return { ok: true, value: params };
  return { ok: false, message: 'params must be an array' };
}
