import type { z } from 'zod';
import { BadRequestError } from '@itp/errors';

/**
 * Validates input against a schema; a failure is a BadRequestError whose message names each
 * member and the rule it broke (never the value: it may be a password).
 */
export function parseOrBadRequest<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || 'body'}: ${issue.message}`)
    .join('; ');
  throw new BadRequestError(message);
}
