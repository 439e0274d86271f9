export {
  defineMethod,
  type RpcContext,
  type RpcMethod,
  type RpcServiceErrorDoc,
  type TransactionOutcome,
} from './method.js';
export {
  InvalidParamsError,
  RPC_ERRORS,
  RpcError,
  defaultRpcMessage,
  rpcErrorObject,
  type ParamIssue,
  type RpcErrorName,
  type RpcErrorObject,
} from './rpc-errors.js';
export {
  serviceError,
  success,
  transactionSuccess,
  type ServiceErrorResult,
  type SuccessResult,
  type TransactionResult,
} from './envelope.js';
export {
  checkRequest,
  type CheckedRequest,
  type RequestCheck,
  type RpcId,
} from './check-request.js';
export { charsetOf, decodeBody, type DecodedBody } from './decode-body.js';
export { handOverBody, readRawBody, type RawBody } from './read-body.js';
export {
  OPENRPC_VERSION,
  absoluteServers,
  type OpenRpcInfo,
  type OpenRpcServer,
} from './openrpc.js';
export { publicUrlSetting } from '@itp/service-kit';
export {
  DEFAULT_MAX_BATCH_ANSWER_BYTES,
  DEFAULT_MAX_BATCH_SIZE,
  RpcServer,
  type RpcHandleContext,
  type RpcHttpAnswer,
  type RpcServerOptions,
} from './rpc-server.js';
export { jsonRpcRouter, type JsonRpcRouterOptions } from './json-rpc-router.js';
export { rateLimitedMethods, type CallLimiter } from './rate-limited.js';
export { RawJson, rawJson, rawSuccessAnswer, stringifyJson } from './serialize.js';
