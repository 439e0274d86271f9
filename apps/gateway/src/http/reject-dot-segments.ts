const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * True when a path segment is `.` or `..` (also percent-encoded), which would escape its prefix.
 * The path is forwarded unchanged, so `/v2/auth/../did/x` must not reach auth-service (or any
 * upstream that normalises paths) as if it were another prefix: gateway-routes.ts refuses such
 * paths with 400.
 */
export function hasDotSegment(pathname: string): boolean {
  return pathname.split('/').some((segment) => DOT_SEGMENT.test(segment));
}
