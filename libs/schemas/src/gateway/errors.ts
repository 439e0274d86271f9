import type { RestErrorDoc } from '../errors/service-errors.js';

/**
 * The answers the gateway gives itself (every other answer is the service's, forwarded): HTTP
 * status and `error.code`. On the JSON-RPC paths an upstream failure (502 / 504) comes as a
 * JSON-RPC transport-error envelope (code -32300) with the same status and text.
 */
export const GATEWAY_ERRORS = {
  invalidPath: {
    status: 400,
    code: '400',
    when: 'a path with dot segments (`/v2/auth/../x`: `Invalid path`), never normalised or forwarded',
  },
  badBody: { status: 400, code: '400', when: 'a compressed body that does not inflate' },
  noRoute: {
    status: 404,
    code: '404',
    when: 'a path no service answers (REST shape on every path)',
  },
  tooLarge: {
    status: 413,
    code: '413',
    when: 'a body over `BODY_LIMIT_BYTES`, declared (`Content-Length`) or streamed (chunked)',
  },
  encoding: {
    status: 415,
    code: '415',
    when: 'a `Content-Encoding` other than identity, gzip, deflate or br',
  },
  upstreamUnavailable: {
    status: 502,
    code: '502',
    when: 'the service is down or the connection broke (`<service> is unavailable`)',
  },
  upstreamTimeout: {
    status: 504,
    code: '504',
    when: 'no answer within `UPSTREAM_TIMEOUT_MS` (`<service> did not answer within N ms`)',
  },
} satisfies Record<string, RestErrorDoc>;
