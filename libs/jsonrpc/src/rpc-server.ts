import jayson from 'jayson/promise/index.js';
import type { Server as JaysonServer, MethodHandlerContext } from 'jayson/promise/index.js';
import { isBaseError } from '@itp/errors';
import { internalErrorMessage, type Logger } from '@itp/service-kit';
import { checkRequest, type CheckedRequest, type RpcId } from './check-request.js';
import { decodeBody } from './decode-body.js';
import { serviceError } from './envelope.js';
import type { RpcContext, RpcMethod } from './method.js';
import { normalizeParams } from './normalize-params.js';
import { buildOpenRpcDocument, type OpenRpcInfo, type OpenRpcServer } from './openrpc.js';
import { paramIssues } from './param-issues.js';
import {
  InvalidParamsError,
  RPC_ERRORS,
  RpcError,
  rpcErrorObject,
  type RpcErrorObject,
} from './rpc-errors.js';
import { stringifyJson } from './serialize.js';
import { wrapOutcome } from './wrap-outcome.js';

export interface RpcServerOptions {
  info: OpenRpcInfo;
  methods: RpcMethod[];
  logger: Logger;
  /** `servers` of the OpenRPC document (omitted when not given). */
  servers?: OpenRpcServer[];
  /** Most requests allowed in one batch (default 100); a larger batch is answered with one -32600. */
  maxBatchSize?: number;
}

/** Per HTTP request: the id that follows the call through the logs, and its logger. */
export interface RpcHandleContext {
  requestId: string;
  /** Defaults to a child of the server's logger bound to the request id. */
  logger?: Logger;
  /** The Content-Type charset the body was sent in, if any (lower-case); not UTF-8 → -32701. */
  charset?: string;
  /** The client's address (express req.ip, honouring trust proxy); becomes RpcContext.clientIp. */
  clientIp?: string;
}

export interface RpcHttpAnswer {
  status: 200 | 204;
  /** JSON text; absent for 204. */
  body?: string;
}

/** What jayson hands back for one call: a response object, or nothing for a notification. */
interface JaysonReply {
  result?: unknown;
  error?: unknown;
}

export const DEFAULT_MAX_BATCH_SIZE = 100;
/**
 * jayson treats `"id": null` as a notification. Every call is therefore dispatched under this
 * id, and the answer gets the caller's real id back (null included).
 */
const DISPATCH_ID = 'itp-jsonrpc-dispatch';
const NO_CONTENT: RpcHttpAnswer = { status: 204 };

function errorText(id: RpcId, error: RpcErrorObject): string {
  try {
    return stringifyJson({ jsonrpc: '2.0', id, error });
  } catch {
    // `data` a handler put into an RpcError could not be serialised.
    return stringifyJson({ jsonrpc: '2.0', id, error: rpcErrorObject(error.code, error.message) });
  }
}

function invalidRequest(id: RpcId, reason: string): string {
  return errorText(id, rpcErrorObject(RPC_ERRORS.INVALID_REQUEST.code, undefined, { reason }));
}

/** jayson's error member (our RpcError, or jayson's own `{ code, message }`) → our error object. */
function toErrorObject(error: unknown): RpcErrorObject {
  if (error instanceof RpcError) return error.toErrorObject();
  const { code, message, data } = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
    data?: unknown;
  };
  if (typeof code === 'number' && Number.isInteger(code)) {
    return rpcErrorObject(code, typeof message === 'string' ? message : undefined, data);
  }
  return rpcErrorObject(RPC_ERRORS.INTERNAL_ERROR.code);
}

/**
 * The transport-free JSON-RPC 2.0 core: raw body in, HTTP status and JSON text out. jayson does
 * the dispatch; the envelope checks of interface §2.8/§7.2 and contract §6 (encodings, id rules,
 * `msg` beside `message`, batches, `rpc.discover`, params normalisation and validation, the
 * resultCode wrapping, bigint-safe serialisation) are done here around it.
 */
export class RpcServer {
  private readonly jayson: JaysonServer;
  private readonly logger: Logger;
  private readonly maxBatchSize: number;
  private readonly documentJson: string;

  constructor(options: RpcServerOptions) {
    this.logger = options.logger;
    this.maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    if (!Number.isInteger(this.maxBatchSize) || this.maxBatchSize < 1) {
      throw new TypeError(`maxBatchSize must be a positive integer: ${options.maxBatchSize}`);
    }
    this.jayson = new jayson.Server({}, { useContext: true });
    for (const { code, message } of Object.values(RPC_ERRORS)) {
      this.jayson.errorMessages[code] = message;
    }
    for (const method of options.methods) {
      if (!method.name) throw new TypeError('A JSON-RPC method needs a name');
      if (method.name.startsWith('rpc.')) {
        throw new TypeError(`"${method.name}": names starting with "rpc." are reserved`);
      }
      if (this.jayson.hasMethod(method.name)) {
        throw new TypeError(`JSON-RPC method "${method.name}" is defined twice`);
      }
      this.jayson.method(
        method.name,
        new jayson.Method(this.invoker(method), { useContext: true }),
      );
    }
    this.documentJson = stringifyJson(
      buildOpenRpcDocument(options.info, options.methods, options.servers),
    );
  }

  /** The OpenRPC document `rpc.discover` answers (a fresh copy; built once at construction). */
  openRpcDocument(): Record<string, unknown> {
    return JSON.parse(this.documentJson) as Record<string, unknown>;
  }

  /**
   * Answers one HTTP body. Status 200 with JSON text for every answer (errors included); 204 with
   * no body when nothing is to be answered (a notification, or a batch of only notifications).
   * Notifications are run to completion before the 204.
   */
  async handle(raw: string | Buffer, ctx: RpcHandleContext): Promise<RpcHttpAnswer> {
    const decoded = decodeBody(raw, ctx.charset);
    if (!decoded.ok) return { status: 200, body: errorText(null, rpcErrorObject(decoded.code)) };
    let payload: unknown;
    try {
      payload = JSON.parse(decoded.text);
    } catch {
      // The parser's message quotes the body: never echoed.
      return { status: 200, body: errorText(null, rpcErrorObject(RPC_ERRORS.PARSE_ERROR.code)) };
    }
    const context: RpcContext = {
      requestId: ctx.requestId,
      logger: ctx.logger ?? this.logger.child({ reqId: ctx.requestId }),
      clientIp: ctx.clientIp,
    };
    if (!Array.isArray(payload)) {
      const text = await this.answerOne(payload, context);
      return text === undefined ? NO_CONTENT : { status: 200, body: text };
    }
    if (payload.length === 0) {
      return { status: 200, body: invalidRequest(null, 'a batch must not be empty') };
    }
    if (payload.length > this.maxBatchSize) {
      return {
        status: 200,
        body: invalidRequest(null, `a batch holds at most ${this.maxBatchSize} requests`),
      };
    }
    const texts = await Promise.all(payload.map((item) => this.answerOne(item, context)));
    const answered = texts.filter((text): text is string => text !== undefined);
    return answered.length === 0 ? NO_CONTENT : { status: 200, body: `[${answered.join(',')}]` };
  }

  /** The JSON text answering one request object, or undefined for a notification. */
  private async answerOne(item: unknown, context: RpcContext): Promise<string | undefined> {
    const checked = checkRequest(item);
    if (!checked.ok) return invalidRequest(checked.id, checked.reason);
    const { request } = checked;
    if (request.method === 'rpc.discover') {
      if (!request.hasId) return undefined;
      return `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":${this.documentJson}}`;
    }
    const reply = await this.dispatch(request, context);
    if (!request.hasId) return undefined;
    if (reply?.error !== undefined) return errorText(request.id, toErrorObject(reply.error));
    try {
      return stringifyJson({ jsonrpc: '2.0', id: request.id, result: reply?.result ?? null });
    } catch (err) {
      context.logger.error(
        { err, method: request.method, requestId: context.requestId },
        'JSON-RPC result could not be serialised',
      );
      return errorText(request.id, rpcErrorObject(RPC_ERRORS.INTERNAL_ERROR.code));
    }
  }

  private dispatch(request: CheckedRequest, context: RpcContext): Promise<JaysonReply | undefined> {
    const call = request.hasId
      ? { jsonrpc: '2.0' as const, method: request.method, params: request.params, id: DISPATCH_ID }
      : { jsonrpc: '2.0' as const, method: request.method, params: request.params };
    return new Promise((resolve) => {
      this.jayson.call(call as Parameters<JaysonServer['call']>[0], context, (error, response) => {
        resolve((error ?? response) as JaysonReply | undefined);
      });
    });
  }

  /** The jayson handler of one method: params normalisation + validation, then the envelope. */
  private invoker(method: RpcMethod): MethodHandlerContext {
    return async (rawParams: unknown, rawContext: object): Promise<unknown> => {
      const context = rawContext as RpcContext;
      try {
        const normalized = normalizeParams(method.paramsStyle, rawParams);
        if (!normalized.ok) {
          throw new InvalidParamsError(RPC_ERRORS.INVALID_PARAMS.message, [
            { path: [], message: normalized.message },
          ]);
        }
        const parsed = await method.params.safeParseAsync(normalized.value);
        if (!parsed.success) {
          throw new InvalidParamsError(
            RPC_ERRORS.INVALID_PARAMS.message,
            paramIssues(parsed.error),
          );
        }
        return wrapOutcome(method, await method.handler(parsed.data, context));
      } catch (err) {
        if (isBaseError(err)) {
          const level = err.status >= 500 ? 'error' : 'debug';
          context.logger[level](
            { err, method: method.name, requestId: context.requestId, resultCode: err.code },
            'JSON-RPC service error',
          );
          // A 500 the caller is not meant to read: the generic text and the request id (logged above).
          return err.expose
            ? serviceError(err)
            : serviceError(err, internalErrorMessage(context.requestId));
        }
        if (err instanceof RpcError) throw err;
        context.logger.error(
          { err, method: method.name, requestId: context.requestId },
          'JSON-RPC handler failed',
        );
        throw new RpcError(RPC_ERRORS.INTERNAL_ERROR.code);
      }
    };
  }
}
