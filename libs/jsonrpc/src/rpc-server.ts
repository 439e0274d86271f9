import jayson from 'jayson/promise/index.js';
import type { Server as JaysonServer, MethodHandlerContext } from 'jayson/promise/index.js';
import { isBaseError } from '@itp/errors';
import {
  MAX_JSON_DEPTH,
  internalErrorMessage,
  jsonDepthExceeds,
  type Logger,
} from '@itp/service-kit';
import { checkRequest, type CheckedRequest, type RpcId } from './check-request.js';
import { decodeBody } from './decode-body.js';
import { serviceError } from './envelope.js';
import type { RpcContext, RpcMethod } from './method.js';
import { normalizeParams } from './normalize-params.js';
import {
  absoluteServers,
  buildOpenRpcDocument,
  type OpenRpcInfo,
  type OpenRpcServer,
} from './openrpc.js';
import { paramIssues } from './param-issues.js';
import {
  InvalidParamsError,
  RPC_ERRORS,
  RpcError,
  rpcErrorObject,
  type RpcErrorObject,
} from './rpc-errors.js';
import { RawJson, rawSuccessAnswer, stringifyJson } from './serialize.js';
import { wrapOutcome } from './wrap-outcome.js';

export interface RpcServerOptions {
  info: OpenRpcInfo;
  methods: RpcMethod[];
  logger: Logger;
  /** `servers` of the OpenRPC document (omitted when not given); relative URLs are made absolute. */
  servers?: OpenRpcServer[];
  /**
   * The public base URL (PUBLIC_URL, e.g. `https://api.example.com`) the relative `servers`
   * URLs are resolved against; when absent the document has no `servers` (never a request's Host).
   */
  publicUrl?: string;
  /** Most requests allowed in one batch (default 100); a larger batch is answered with one -32600. */
  maxBatchSize?: number;
  /**
   * Largest total size in bytes of a batch's answer (default 1 MiB, DEFAULT_MAX_BATCH_ANSWER_BYTES).
   * Answers are kept in batch order while the total stays within it; each answer that would take
   * the total over it is replaced by a -32600 naming the limit (same id), so one batch cannot make
   * the server build and send megabytes (100 × `rpc.discover` is ~1.8 MB). Calls are run all the
   * same: a replaced transaction answer is recovered by sending the same request again on its own
   * (an identical retry returns the original result).
   */
  maxBatchAnswerBytes?: number;
}

/** Per HTTP request: the id that follows the call through the logs, and its logger. */
export interface RpcHandleContext {
  requestId: string;
  /**
   * Defaults to a child of the server's logger bound to the request id. A function is called
   * only when a handler logs (a child logger per request costs more than the rest of a cached
   * answer).
   */
  logger?: Logger | (() => Logger);
  /** The Content-Type charset the body was sent in, if any (lower-case); not UTF-8 → -32701. */
  charset?: string;
  /** The client's address (express req.ip, honouring trust proxy); becomes RpcContext.clientIp. */
  clientIp?: string | (() => string | undefined);
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
export const DEFAULT_MAX_BATCH_ANSWER_BYTES = 1024 * 1024;
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

/** The id of a batch item whose answer is replaced (it was answered, so its id is valid). */
function idOf(item: unknown): RpcId {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
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

/** `ctx[key]`, computed (once) when the transport handed a function. */
function lazy(ctx: RpcHandleContext, key: 'clientIp'): string | undefined {
  const value = ctx[key];
  if (typeof value !== 'function') return value;
  const computed = value();
  ctx[key] = computed;
  return computed;
}

/**
 * The answer to call `id` for a success whose resultData is pre-serialised (RawJson): the
 * envelope written around the bytes (rawSuccessAnswer). Undefined otherwise.
 */
function rawAnswer(id: RpcId, result: unknown): string | undefined {
  if (result === null || typeof result !== 'object') return undefined;
  const data = (result as { resultData?: unknown }).resultData;
  if (!(data instanceof RawJson)) return undefined;
  const { resultCode, resultMessage, TransactionID } = result as Record<string, unknown>;
  if (resultCode !== '200' || resultMessage !== 'Success') return undefined;
  const transaction = typeof TransactionID === 'string';
  if (Object.keys(result).length !== (transaction ? 4 : 3)) return undefined;
  return rawSuccessAnswer(id, data.text, transaction ? TransactionID : undefined);
}

/**
 * The transport-free JSON-RPC 2.0 core: raw body in, HTTP status and JSON text out. jayson does
 * the dispatch; the envelope checks of docs/api.md §4.1 and §6 and docs/api.md §6 (encodings, id rules,
 * `msg` beside `message`, batches, `rpc.discover`, params normalisation and validation, the
 * resultCode wrapping, bigint-safe serialisation) are done here around it.
 */
export class RpcServer {
  private readonly jayson: JaysonServer;
  private readonly logger: Logger;
  private readonly maxBatchSize: number;
  private readonly maxBatchAnswerBytes: number;
  private readonly documentJson: string;
  private readonly servers: readonly OpenRpcServer[];
  private readonly publicUrl: string | undefined;
  /** rpc.discover's document as JSON text, made on the first call (it never changes). */
  private discoverText: string | undefined;

  constructor(options: RpcServerOptions) {
    this.logger = options.logger;
    this.maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    if (!Number.isInteger(this.maxBatchSize) || this.maxBatchSize < 1) {
      throw new TypeError(`maxBatchSize must be a positive integer: ${options.maxBatchSize}`);
    }
    this.maxBatchAnswerBytes = options.maxBatchAnswerBytes ?? DEFAULT_MAX_BATCH_ANSWER_BYTES;
    if (!Number.isInteger(this.maxBatchAnswerBytes) || this.maxBatchAnswerBytes < 1) {
      throw new TypeError(
        `maxBatchAnswerBytes must be a positive integer: ${options.maxBatchAnswerBytes}`,
      );
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
    this.servers = options.servers ?? [];
    this.publicUrl = options.publicUrl;
    this.documentJson = stringifyJson(
      buildOpenRpcDocument(options.info, options.methods, options.servers),
    );
  }

  /**
   * The OpenRPC document `rpc.discover` answers (a fresh copy; built once at construction), its
   * relative server URLs resolved against PUBLIC_URL — never against a request's Host.
   */
  openRpcDocument(): Record<string, unknown> {
    const doc = JSON.parse(this.documentJson) as Record<string, unknown>;
    if (this.servers.length > 0 && this.publicUrl) {
      doc['servers'] = absoluteServers(this.servers, this.publicUrl);
    } else {
      // OpenRPC server URLs are absolute: without PUBLIC_URL the document names none (clients
      // call the URL they fetched it from).
      delete doc['servers'];
    }
    return doc;
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
    if (jsonDepthExceeds(payload)) {
      // Before any recursive walk of the params (validation, handlers): never a stack overflow.
      return {
        status: 200,
        body: invalidRequest(null, `the JSON nests deeper than ${MAX_JSON_DEPTH} levels`),
      };
    }
    const context = this.contextFor(ctx);
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
    // rpc.discover at most once per batch: the others get -32600 (each would be ~18 KB).
    const batch = { discovered: false };
    const texts = await Promise.all(payload.map((item) => this.answerOne(item, context, batch)));
    const answered = this.capBatchAnswers(payload, texts);
    return answered.length === 0 ? NO_CONTENT : { status: 200, body: `[${answered.join(',')}]` };
  }

  /**
   * The answers of a batch, in order, within maxBatchAnswerBytes in total (brackets and commas
   * included): an answer that would go over is replaced by a small -32600 carrying its id.
   */
  private capBatchAnswers(payload: unknown[], texts: Array<string | undefined>): string[] {
    const answered: string[] = [];
    let total = 2; // `[` and `]`
    texts.forEach((text, index) => {
      if (text === undefined) return;
      const separator = answered.length === 0 ? 0 : 1;
      let kept = text;
      if (total + separator + Buffer.byteLength(text) > this.maxBatchAnswerBytes) {
        kept = invalidRequest(
          idOf(payload[index]),
          `the answers of this batch would exceed ${this.maxBatchAnswerBytes} bytes: ` +
            'send this request on its own or in a smaller batch',
        );
      }
      total += separator + Buffer.byteLength(kept);
      answered.push(kept);
    });
    return answered;
  }

  /** The handlers' context; its logger is made on first use. */
  private contextFor(ctx: RpcHandleContext): RpcContext {
    const given = ctx.logger;
    const server = this.logger;
    let logger: Logger | undefined = typeof given === 'function' ? undefined : given;
    return {
      requestId: ctx.requestId,
      // A function (the transport's req.ip) runs only when something reads it.
      get clientIp() {
        return lazy(ctx, 'clientIp');
      },
      get logger(): Logger {
        logger ??= typeof given === 'function' ? given() : server.child({ reqId: ctx.requestId });
        return logger;
      },
    };
  }

  /** The JSON text answering one request object, or undefined for a notification. */
  private async answerOne(
    item: unknown,
    context: RpcContext,
    batch?: { discovered: boolean },
  ): Promise<string | undefined> {
    const checked = checkRequest(item);
    if (!checked.ok) return invalidRequest(checked.id, checked.reason);
    const { request } = checked;
    if (request.method === 'rpc.discover') {
      if (!request.hasId) return undefined;
      if (batch) {
        if (batch.discovered) {
          return invalidRequest(request.id, 'rpc.discover is answered once per batch');
        }
        batch.discovered = true;
      }
      this.discoverText ??= stringifyJson(this.openRpcDocument());
      return `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":${this.discoverText}}`;
    }
    const reply = await this.dispatch(request, context);
    if (!request.hasId) return undefined;
    if (reply?.error !== undefined) return errorText(request.id, toErrorObject(reply.error));
    const raw = rawAnswer(request.id, reply?.result);
    if (raw !== undefined) return raw;
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
