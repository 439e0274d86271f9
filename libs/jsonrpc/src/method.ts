import type { z } from 'zod';
import type { Logger } from '@itp/service-kit';

/** What a method handler gets besides its params. */
export interface RpcContext {
  requestId: string;
  logger: Logger;
  /**
   * The client's address as the HTTP transport saw it (express `req.ip`, which honours the app's
   * `trust proxy` setting: behind a trusted gateway, the address it reports in X-Forwarded-For).
   * For per-client limits; undefined when the transport does not know it.
   */
  clientIp?: string;
}

/** A documented service error (returned in `result.resultCode`). */
export interface RpcServiceErrorDoc {
  resultCode: string;
  when: string;
}

/** Result of a transaction-creating method: `result.TransactionID` plus `result.resultData`. */
export interface TransactionOutcome<D> {
  transactionId: string;
  resultData: D;
}

/**
 * One JSON-RPC method: its schemas (validation, TypeScript types and the OpenRPC document all come
 * from them) and its handler. The handler returns `resultData` (kind 'data') or a
 * TransactionOutcome (kind 'transaction'); the server wraps it in
 * `{ resultCode: "200", resultMessage: "Success", [TransactionID,] resultData }`.
 * A BaseError thrown by the handler becomes a service error
 * `{ resultCode: err.code, resultMessage: err.message, resultData: "" }`; any other throw is -32603.
 */
export interface RpcMethod<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  /** Unique per server; names starting with `rpc.` are reserved. */
  name: string;
  summary: string;
  description?: string;
  /**
   * 'object': params is an object, or a one-element array holding that object; omitted = {}.
   * 'positional': params is an array; omitted = [].
   */
  paramsStyle: 'object' | 'positional';
  /** Validates the (normalised) params. A failure is -32602 with the issues in `error.data`. */
  params: P;
  /** Schema of `resultData`. */
  result: R;
  kind?: 'data' | 'transaction';
  /** Service errors this method can return, for the docs. */
  errors?: RpcServiceErrorDoc[];
  /**
   * Example params/result pairs for the docs (optional). `params` as a client sends them; `result`
   * as the handler returns it (resultData, or a TransactionOutcome for kind 'transaction'): the
   * OpenRPC document shows it wrapped in the envelope.
   */
  examples?: Array<{ name: string; params: unknown; result: unknown }>;
  handler: (params: z.infer<P>, ctx: RpcContext) => Promise<unknown>;
}

/** Identity helper that keeps the params type flowing from the schema into the handler. */
export function defineMethod<P extends z.ZodType, R extends z.ZodType>(
  method: RpcMethod<P, R>,
): RpcMethod<P, R> {
  return method;
}
