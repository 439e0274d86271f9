import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from '@itp/service-kit';
import { charsetOf } from './decode-body.js';
import { readRawBody, takeHandedOverBody } from './read-body.js';
import { RPC_ERRORS, rpcErrorObject } from './rpc-errors.js';
import type { RpcServer } from './rpc-server.js';
import { stringifyJson } from './serialize.js';

export interface JsonRpcRouterOptions {
  /** Largest body accepted; a larger one is HTTP 413 with a -32600 JSON-RPC error body. */
  bodyLimitBytes: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function sendError(res: Response, status: number, code: number, reason: string): void {
  res
    .status(status)
    .type(JSON_TYPE)
    .send(
      stringifyJson({
        jsonrpc: '2.0',
        id: null,
        error: rpcErrorObject(code, undefined, { reason }),
      }),
    );
}

function requestIdOf(req: Request): string {
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : randomUUID();
}

/**
 * The HTTP transport of an RpcServer. Mount it where the API lives
 * (`app.use('/token', jsonRpcRouter(server, { bodyLimitBytes }))`) and put no body parser in
 * front of it: `POST /` reads the raw body itself, whatever the Content-Type. Every JSON-RPC answer
 * is 200 `application/json` (204 without a body when only notifications came in). Outside the
 * protocol, still with a JSON-RPC error body (id null, `data.reason`): a body over the limit is
 * 413 (-32600), a Content-Encoding (gzip…) is 200 with -32701, and any method other than POST on
 * the path is 405 (-32600) with `Allow: POST`. The request id is pino-http's `req.id` and the
 * handler logger `req.log` (service-kit's HttpService sets both); `RpcContext.clientIp` is `req.ip`
 * (set the app's `trust proxy` to believe X-Forwarded-For from a gateway, and only from it).
 * A raw node:http route ahead of express may read the body itself and still leave the request to
 * this router: it hands the outcome over with handOverBody (read with the same limit).
 */
export function jsonRpcRouter(server: RpcServer, options: JsonRpcRouterOptions): Router {
  const router = express.Router();

  router.post('/', async (req, res, next) => {
    try {
      // A raw route that read the body first hands it over (handOverBody).
      const handed = takeHandedOverBody(req);
      if (!handed && req.readableEnded) {
        // A body parser ran first and the raw bytes are gone: a wiring bug, not a client error.
        throw new Error('jsonRpcRouter must be mounted before any body parser');
      }
      const encoding = req.headers['content-encoding']?.trim().toLowerCase();
      const raw = handed ?? (await readRawBody(req, options.bodyLimitBytes));
      if (raw.kind === 'aborted') return;
      if (raw.kind === 'too-large') {
        sendError(
          res,
          413,
          RPC_ERRORS.INVALID_REQUEST.code,
          `the body is larger than ${options.bodyLimitBytes} bytes`,
        );
        return;
      }
      if (encoding && encoding !== 'identity') {
        sendError(
          res,
          200,
          RPC_ERRORS.UNSUPPORTED_ENCODING.code,
          'Content-Encoding is not supported; send the body uncompressed',
        );
        return;
      }
      const answer = await server.handle(raw.body, {
        requestId: requestIdOf(req),
        // service-kit makes req.log on first use: only read it when a handler logs.
        logger: 'log' in req ? () => (req as { log: Logger }).log : undefined,
        charset: charsetOf(req.headers['content-type']),
        clientIp: () => req.ip,
      });
      if (answer.body === undefined) {
        res.status(204).end();
        return;
      }
      // Straight to node (express's send would also check freshness and convert the text).
      res.writeHead(answer.status, {
        'content-type': JSON_TYPE,
        'content-length': Buffer.byteLength(answer.body),
      });
      res.end(answer.body);
    } catch (err) {
      next(err);
    }
  });

  router.all('/', (_req, res) => {
    res.setHeader('Allow', 'POST');
    sendError(res, 405, RPC_ERRORS.INVALID_REQUEST.code, 'JSON-RPC requests must use HTTP POST');
  });

  return router;
}
