import type { z } from 'zod';
import { BadRequestError } from '@itp/errors';

/**
 * Validates a request body with its schema; a failure is a 400 whose message names the first
 * problems by path (never echoing values). A refused record key (e.g. a reserved key) says why.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined) {
    throw new BadRequestError('A JSON body (Content-Type: application/json) is required');
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
    const message = inner ?? issue.message;
    return path ? `${path}: ${message}` : message;
  });
  throw new BadRequestError(`Invalid request body: ${problems.join('; ')}`);
}
