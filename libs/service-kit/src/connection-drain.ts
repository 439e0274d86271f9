import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from './logger.js';

export interface DrainOptions {
  /** The longest the drain may take; then every connection left is cut. */
  graceMs: number;
  /**
   * A kept-alive connection without a request is closed only once no request has been in flight
   * on the whole server for this long: a client that is sending the next request right now gets
   * it served (with `Connection: close`) instead of a closed socket.
   */
  idleLingerMs: number;
}

export interface DrainResult {
  /** Requests in flight when the drain began. */
  inFlightAtStart: number;
  /** Requests that arrived on kept-alive connections during the drain (all served). */
  servedDuringDrain: number;
  /** Requests still running when the grace ran out (their connections were cut). */
  cut: number;
}

/** How often the drain looks whether the server has been quiet for `idleLingerMs`. */
const QUIET_POLL_MS = 25;

/**
 * Graceful shutdown of one node:http server without dropping a request.
 *
 * `track` sees every request first. `drain`:
 * 1. stops listening (new connections are refused: a client or load balancer retries them
 *    elsewhere) but, unlike `server.close()` on Node ≥ 19, does not close idle kept-alive
 *    connections at once (a request may be on its way on them: closing then is what produced
 *    "socket hang up" / ECONNRESET);
 * 2. lets every request in flight finish, and serves requests that still arrive on kept-alive
 *    connections; each of these answers, and every in-flight one whose headers are not sent yet,
 *    carries `Connection: close`, so that node ends each connection after its answer and clients
 *    open no new request on it;
 * 3. closes idle connections (never one with a request in flight or being received) once the
 *    server has been quiet — nothing in flight — for `idleLingerMs`;
 * 4. cuts whatever is left after `graceMs` (a handler slower than the grace).
 * It resolves once every connection is closed.
 */
export class ConnectionDrain {
  private readonly inFlight = new Set<ServerResponse>();
  private draining = false;
  private lastActivity = Date.now();
  private servedDuringDrain = 0;

  /** Call first for every request (before the app's handler). */
  track(_req: IncomingMessage, res: ServerResponse): void {
    this.inFlight.add(res);
    this.lastActivity = Date.now();
    if (this.draining) {
      this.servedDuringDrain += 1;
      closeAfterAnswer(res);
    }
    res.once('close', () => {
      this.inFlight.delete(res);
      this.lastActivity = Date.now();
    });
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async drain(server: Server, options: DrainOptions, logger?: Logger): Promise<DrainResult> {
    this.draining = true;
    const inFlightAtStart = this.inFlight.size;
    for (const res of this.inFlight) closeAfterAnswer(res);
    logger?.info({ inFlight: inFlightAtStart }, 'draining: no new connections');
    const closed = stopListening(server);
    let cut = 0;
    const quietPoll = setInterval(
      () => {
        if (this.inFlight.size === 0 && Date.now() - this.lastActivity >= options.idleLingerMs) {
          server.closeIdleConnections();
        }
      },
      Math.max(1, Math.min(QUIET_POLL_MS, options.idleLingerMs)),
    );
    const deadline = setTimeout(() => {
      cut = this.inFlight.size;
      if (cut > 0) {
        logger?.warn({ cut, graceMs: options.graceMs }, 'drain grace over: cutting requests');
      }
      server.closeAllConnections();
    }, options.graceMs);
    try {
      await closed;
    } finally {
      clearInterval(quietPoll);
      clearTimeout(deadline);
    }
    const result = { inFlightAtStart, servedDuringDrain: this.servedDuringDrain, cut };
    logger?.info(result, 'drained');
    return result;
  }
}

/**
 * Makes `res` go out with `Connection: close` (node then ends the connection after it), even when
 * the handler sets its own Connection header — a proxy copies the upstream's `keep-alive` — by
 * setting it again as the headers are written. No effect once the headers are sent.
 */
function closeAfterAnswer(res: ServerResponse): void {
  if (res.headersSent) return;
  res.setHeader('Connection', 'close');
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadThenClose(this: ServerResponse, ...args: unknown[]) {
    const passed = args.map((arg, i) =>
      i > 0 && arg !== null && typeof arg === 'object' && !Array.isArray(arg)
        ? Object.fromEntries(
            Object.entries(arg).filter(([name]) => name.toLowerCase() !== 'connection'),
          )
        : arg,
    );
    if (!this.headersSent) this.setHeader('Connection', 'close');
    return Reflect.apply(writeHead, this, passed) as ServerResponse;
  } as ServerResponse['writeHead'];
}

/**
 * `server.close()` without its closeIdleConnections() (Node ≥ 19 calls it first): stop accepting
 * connections; resolves when the last open connection has closed.
 */
function stopListening(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.closeIdleConnections = () => undefined;
    try {
      server.close(() => resolve());
    } finally {
      // Back to the prototype's method, which the drain calls once the server is quiet.
      delete (server as { closeIdleConnections?: unknown }).closeIdleConnections;
    }
  });
}
