import type { IncomingMessage, ServerResponse } from 'node:http';
import { handOverBody, readRawBody, type RawBody } from '@itp/jsonrpc';
import type { HttpService, Logger, RawRoutes } from '@itp/service-kit';
import type { BlockService } from '../blocks/block-service.js';
import { cachedGetBlockAnswer } from '../rpc/cached-get-block.js';

export interface BlockFastPathOptions {
  service: Pick<HttpService, 'observe'>;
  blocks: Pick<BlockService, 'memoryText'>;
  /** BODY_LIMIT_BYTES: the limit jsonRpcRouter enforces too. */
  bodyLimitBytes: number;
  /** Where every request the fast path does not answer goes, its body handed over: the express app. */
  fallback: (req: IncomingMessage, res: ServerResponse) => void;
  logger: Logger;
  /**
   * Counts the call for its client address before the fast path answers it (the read limit,
   * RATE_LIMIT_READ_PER_MINUTE); a refusal (over the limit, the counter store failing) leaves the
   * request to the JSON-RPC path, which counts it and answers the refusal. None: not counted.
   */
  countCall?: (req: IncomingMessage) => Promise<void>;
}

/** The paths jsonRpcRouter answers POST on (mounted at /block); others are left to express. */
const PATHS = new Set(['/block', '/block/']);
/** The route template express reports for them (metrics label, span name). */
const ROUTE = '/block/';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * POST /block on node:http ahead of express (HttpService.setRawRoutes): a getBlock of a final
 * block held in process memory — what a client asking for historical blocks sends over and over —
 * is answered from its cached JSON text without express's middleware stack, the `/block` router
 * or jayson. The body is read within the limit as it streams; then, when it is one such call
 * (cachedGetBlockAnswer) and the client's read limit lets it through (countCall, the counter the
 * JSON-RPC path uses), the answer is the bytes the JSON-RPC path would send, with the same
 * headers, request id, access log line, latency metric and trace span (service.observe); the
 * shutdown drain counts the request as any other. Every other request — another method, a
 * batch, a notification, bad JSON, a body over the limit, a block not in memory — goes to the
 * express app unchanged, its body handed over (handOverBody). Requests that cannot be the fast
 * case from their headers alone (another method or path, a Content-Encoding, a Content-Length
 * over the limit) are declined before the body is read.
 */
export function blockFastPath(options: BlockFastPathOptions): RawRoutes {
  const { service, blocks, bodyLimitBytes, fallback, logger, countCall } = options;

  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    raw: RawBody,
    startedAt: number,
  ): Promise<void> => {
    if (raw.kind === 'aborted') {
      // The client went away while sending: the access log line express would write.
      service.observe(req, res, ROUTE, startedAt);
      return;
    }
    if (raw.kind === 'body') {
      let text: string | undefined;
      try {
        text = await cachedGetBlockAnswer(blocks, raw.body, req.headers['content-type']);
      } catch {
        text = undefined; // e.g. the chain's namespace could not be asked: the normal path says so
      }
      if (text !== undefined && countCall) {
        try {
          await countCall(req);
        } catch {
          text = undefined; // over the limit (or no counter): the normal path counts and says so
        }
      }
      if (text !== undefined) {
        service.observe(req, res, ROUTE, startedAt);
        if (res.destroyed) return;
        res.writeHead(200, {
          'content-type': JSON_TYPE,
          'content-length': Buffer.byteLength(text),
        });
        res.end(text);
        return;
      }
    }
    handOverBody(req, raw);
    fallback(req, res);
  };

  return (req, res) => {
    if (req.method !== 'POST' || !PATHS.has(req.url ?? '')) return false;
    if (req.headers['content-encoding'] !== undefined) return false;
    if (Number(req.headers['content-length']) > bodyLimitBytes) return false;
    const startedAt = performance.now();
    readRawBody(req, bodyLimitBytes)
      .then((raw) => answer(req, res, raw, startedAt))
      .catch((err: unknown) => {
        // Nothing above is expected to throw; should it, the connection is not left hanging.
        logger.error({ err }, 'block fast path failed');
        res.destroy();
      });
    return true;
  };
}
