import type { z } from 'zod';
import type { ParamIssue } from './rpc-errors.js';

/** The issues of a failed params parse as `{ path, message }`: never the rejected values. */
export function paramIssues(error: z.ZodError): ParamIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
    message: issue.message,
  }));
}
