import type { IncomingMessage } from 'node:http';

export type RawBody = { kind: 'body'; body: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

/**
 * Reads the whole request body as bytes, up to `limit` bytes. Over the limit (declared by
 * Content-Length or found while reading) the rest is read off and dropped, as express's body
 * parsers do, so the client gets to read the 413 instead of a reset connection.
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<RawBody> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && declared > limit;
    let size = 0;
    let chunks: Buffer[] = [];
    let settled = false;
    const settle = (result: RawBody) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks = [];
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () =>
      settle(
        tooLarge ? { kind: 'too-large' } : { kind: 'body', body: Buffer.concat(chunks, size) },
      ),
    );
    req.once('error', () => settle({ kind: 'aborted' }));
    req.once('close', () => settle({ kind: 'aborted' }));
  });
}

/** Bodies a raw node:http route read and then left to the express app (see handOverBody). */
const handedOver = new WeakMap<IncomingMessage, RawBody>();

/**
 * For a raw node:http route (service-kit's HttpService.setRawRoutes) that read a request's body
 * with readRawBody and then leaves the request to the express app after all: jsonRpcRouter uses
 * this outcome instead of reading the stream, which is consumed by then.
 */
export function handOverBody(req: IncomingMessage, body: RawBody): void {
  handedOver.set(req, body);
}

/** The body a raw route handed over for `req` (once), or undefined. */
export function takeHandedOverBody(req: IncomingMessage): RawBody | undefined {
  const body = handedOver.get(req);
  if (body) handedOver.delete(req);
  return body;
}
