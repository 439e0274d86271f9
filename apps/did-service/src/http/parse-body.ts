import type { z } from 'zod';
import { BadRequestError } from '@itp/errors';

/** Validates a request body; a 400 names the first problems (never echoes values). */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined)
    throw new BadRequestError('A JSON body (Content-Type: application/json) is required');
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw new BadRequestError(`Invalid request body: ${problems.join('; ')}`);
}
