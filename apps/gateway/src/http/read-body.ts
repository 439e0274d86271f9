import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** How reading a request body ended. */
export type BodyOutcome =
  | { kind: 'ok'; body: Buffer | undefined; inflated: boolean }
  /** Over the limit (declared or counted while it streamed in): 413. */
  | { kind: 'too-large' }
  /** A Content-Encoding the gateway cannot inflate (415), or one that is not valid data (400). */
  | { kind: 'bad-encoding'; status: 400 | 415 }
  /** The client went away mid-body: nobody to answer. */
  | { kind: 'aborted' };

function inflaterFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * Reads the whole request body into one Buffer before anything is forwarded, so that a body over
 * the limit is refused with 413 whether it declares its size (Content-Length: refused before a
 * byte is read) or not (chunked: counted as it streams in, refused at the first byte over), and an
 * upstream never sees a truncated request. Compressed bodies are inflated here (the limit applies
 * to the inflated size) and forwarded as identity. A request without a body (no Content-Length,
 * no Transfer-Encoding) has `body` undefined. On a refusal the rest of the body is read and
 * dropped, so the answer reaches the client.
 */
export function readBody(
  req: IncomingMessage,
  limitBytes: number,
  done: (outcome: BodyOutcome) => void,
): void {
  const headers = req.headers;
  const declared = headers['content-length'];
  if (declared === undefined && headers['transfer-encoding'] === undefined) {
    done({ kind: 'ok', body: undefined, inflated: false });
    return;
  }
  const encoding = (headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const identity = encoding === 'identity' || encoding === '';
  const inflater = identity ? undefined : inflaterFor(encoding);
  if (!identity && !inflater) {
    req.resume();
    done({ kind: 'bad-encoding', status: 415 });
    return;
  }
  if (identity && declared !== undefined && Number(declared) > limitBytes) {
    req.resume();
    done({ kind: 'too-large' });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (outcome: BodyOutcome): void => {
    if (finished) return;
    finished = true;
    if (outcome.kind !== 'ok') {
      if (inflater) {
        req.unpipe(inflater);
        inflater.destroy();
      }
      req.removeListener('data', onData);
      req.resume(); // drop the rest: the answer must still reach the client
    }
    done(outcome);
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > limitBytes) {
      finish({ kind: 'too-large' });
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = (): void => {
    const body =
      chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, size);
    finish({ kind: 'ok', body, inflated: inflater !== undefined });
  };
  req.once('aborted', () => finish({ kind: 'aborted' }));
  req.once('error', () => finish({ kind: 'aborted' }));
  if (inflater) {
    inflater.on('data', onData);
    inflater.once('end', onEnd);
    inflater.once('error', () => finish({ kind: 'bad-encoding', status: 400 }));
    req.pipe(inflater);
  } else {
    req.on('data', onData);
    req.once('end', onEnd);
  }
}
