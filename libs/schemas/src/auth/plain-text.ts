import { z } from 'zod';

/** C0 control characters and DEL: never part of an id, a requestId or a client id. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** The same rule as a whole-string pattern (it appears in the JSON Schemas as `pattern`). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/**
 * A string of 1..`max` characters without control characters (docs/api.md §2.3): a NUL byte or a
 * line break in an id is refused at the edge with 400 instead of reaching the database (PostgreSQL
 * refuses NUL in text) or a log line.
 */
export function plainText(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .regex(NO_CONTROL_CHARACTERS, { message: 'must not contain control characters' });
}
