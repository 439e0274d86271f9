import express, { type RequestHandler } from 'express';
import { BadRequestError } from '@itp/errors';

/**
 * The deepest nesting of arrays and objects a request body may have (docs/api.md §1). Real
 * bodies — a VP holding VCs with nested claims — stay far below it; a body nested thousands of
 * levels deep would overflow the stack of every recursive walk after parsing (canonical JSON,
 * JWT payload handling), so it is refused before any of them runs.
 */
export const MAX_JSON_DEPTH = 64;

/** 400: the body (or a JSON-RPC request) nests deeper than MAX_JSON_DEPTH. */
export class JsonTooDeepError extends BadRequestError {
  constructor(maxDepth: number = MAX_JSON_DEPTH) {
    super(`The JSON body nests arrays and objects deeper than ${maxDepth} levels`);
  }
}

/**
 * Whether `value` (parsed JSON) nests arrays/objects deeper than `maxDepth`; a scalar has depth
 * 0, `{}` and `[]` depth 1. Iterative (an explicit stack), so that it cannot overflow itself, and
 * it stops at the first path that is too deep.
 */
export function jsonDepthExceeds(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const here = depth + 1;
    if (here > maxDepth) return true;
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, here]);
    }
  }
  return false;
}

/**
 * express.json (body limit `limit`) followed by the depth rule: the JSON body parser of every
 * REST route. A body nested too deep is a 400 (JsonTooDeepError), never a stack overflow.
 */
export function jsonBody(
  options: Pick<NonNullable<Parameters<typeof express.json>[0]>, 'limit' | 'type'>,
): RequestHandler {
  const parse = express.json(options);
  return (req, res, next) => {
    parse(req, res, (err?: unknown) => {
      if (err) {
        next(err);
        return;
      }
      if (req.body !== undefined && jsonDepthExceeds(req.body)) {
        next(new JsonTooDeepError());
        return;
      }
      next();
    });
  };
}
