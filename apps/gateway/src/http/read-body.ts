import express, { type RequestHandler } from 'express';

/**
 * Reads the whole request body into a Buffer (`req.body`) before anything is forwarded, so that a
 * body over the limit is refused with 413 in the REST error shape whether it declares its size
 * (Content-Length) or not (chunked), and an upstream never sees a truncated request. Compressed
 * bodies are inflated here (the limit applies to the inflated size) and forwarded as identity.
 * Requests without a body (a plain GET) leave `req.body` undefined.
 */
export function readBody(limitBytes: number): RequestHandler {
  return express.raw({ type: () => true, limit: limitBytes, inflate: true });
}
