import type { RequestHandler } from 'express';
import { BadRequestError } from '@itp/errors';

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** True when a path segment is `.` or `..` (also percent-encoded), which would escape its prefix. */
export function hasDotSegment(pathname: string): boolean {
  return pathname.split('/').some((segment) => DOT_SEGMENT.test(segment));
}

/**
 * The path is forwarded unchanged, so `/v2/auth/../did/x` must not reach auth-service (or any
 * upstream that normalises paths) as if it were another prefix: such paths are refused with 400.
 */
export const rejectDotSegments: RequestHandler = (req, _res, next) => {
  next(hasDotSegment(req.path) ? new BadRequestError('Invalid path') : undefined);
};
