/**
 * The protocol error codes of docs/api.md §6 with their default messages. The first five are
 * JSON-RPC 2.0's own; -32701/-32702 and -32500/-32400/-32300 are the platform's additions (docs/api.md §6).
 */
export const RPC_ERRORS = {
  PARSE_ERROR: { code: -32700, message: 'Parse error' },
  UNSUPPORTED_ENCODING: { code: -32701, message: 'Parse error: unsupported encoding' },
  INVALID_CHARACTER: { code: -32702, message: 'Parse error: invalid character for encoding' },
  INVALID_REQUEST: { code: -32600, message: 'Invalid Request' },
  METHOD_NOT_FOUND: { code: -32601, message: 'Method not found' },
  INVALID_PARAMS: { code: -32602, message: 'Invalid params' },
  INTERNAL_ERROR: { code: -32603, message: 'Internal error' },
  APPLICATION_ERROR: { code: -32500, message: 'Application error' },
  SYSTEM_ERROR: { code: -32400, message: 'System error' },
  TRANSPORT_ERROR: { code: -32300, message: 'Transport error' },
} as const;

export type RpcErrorName = keyof typeof RPC_ERRORS;

const MESSAGES = new Map<number, string>(
  Object.values(RPC_ERRORS).map(({ code, message }) => [code, message]),
);

/** The default message of a protocol error code ("Server error" for codes outside the table). */
export function defaultRpcMessage(code: number): string {
  return MESSAGES.get(code) ?? 'Server error';
}

/** The `error` member of a protocol error answer: `message` and `msg` always carry the same text. */
export interface RpcErrorObject {
  code: number;
  message: string;
  msg: string;
  data?: unknown;
}

/** Builds an `error` member; the message defaults to the code's entry in RPC_ERRORS. */
export function rpcErrorObject(code: number, message?: string, data?: unknown): RpcErrorObject {
  const text = message ?? defaultRpcMessage(code);
  const error: RpcErrorObject = { code, message: text, msg: text };
  if (data !== undefined) error.data = data;
  return error;
}

/**
 * A JSON-RPC protocol error. Thrown by a handler, it is answered as
 * `{ error: { code, message, msg, data? } }` (never as a service error). `data` is sent to the
 * client as is: put nothing secret in it.
 */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message?: string, data?: unknown) {
    if (!Number.isInteger(code)) throw new TypeError(`RpcError code must be an integer: ${code}`);
    super(message ?? defaultRpcMessage(code));
    this.name = new.target.name;
    this.code = code;
    this.data = data;
  }

  toErrorObject(): RpcErrorObject {
    return rpcErrorObject(this.code, this.message, this.data);
  }
}

/** One problem with the params: where (path into params) and what, never the offending value. */
export interface ParamIssue {
  path: Array<string | number>;
  message: string;
}

/**
 * -32602 for params the schema could not express (e.g. two fields that only make sense together).
 * Answered with `data: { issues }`; without explicit issues, one issue at the params root carrying
 * the message.
 */
export class InvalidParamsError extends RpcError {
  constructor(message: string = RPC_ERRORS.INVALID_PARAMS.message, issues?: ParamIssue[]) {
    super(RPC_ERRORS.INVALID_PARAMS.code, message, {
      issues: issues ?? [{ path: [], message }],
    });
  }
}
