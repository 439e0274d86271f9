import type { HttpTransport } from '../http/http-transport.js';
import type { CallOptions, TransactionResult } from '../types.js';
import { UnexpectedResponseError } from '../errors/error-classes.js';
import { jsonRpcRequest, readJsonRpcAnswer, type JsonRpcSuccess } from './envelope.js';

/** One JSON-RPC endpoint of the gateway (`/token`, `/token/erc20`, `/block`). */
export class RpcEndpoint {
  private nextId = 1;

  constructor(
    private readonly http: HttpTransport,
    readonly path: string,
  ) {}

  /** Calls `method` and returns `result` (resultData and TransactionID) or throws its typed error. */
  async invoke(method: string, params: unknown, call?: CallOptions): Promise<JsonRpcSuccess> {
    const id = this.nextId++;
    const answer = await this.http.send(
      { method: 'POST', path: this.path, body: jsonRpcRequest(id, method, params) },
      call,
    );
    return readJsonRpcAnswer({ path: this.path, method, id, ...answer });
  }

  /** resultData of `method`. */
  async call<T>(method: string, params: unknown, call?: CallOptions): Promise<T> {
    return (await this.invoke(method, params, call)).resultData as T;
  }

  /** A transaction-creating method: TransactionID and resultData. */
  async transaction(
    method: string,
    params: unknown,
    call?: CallOptions,
  ): Promise<TransactionResult> {
    const { resultData, transactionId } = await this.invoke(method, params, call);
    if (transactionId === undefined || typeof resultData !== 'string') {
      throw new UnexpectedResponseError(`${this.path} ${method}: no TransactionID in the result`, {
        source: 'client',
        operation: method,
        data: resultData,
      });
    }
    return { transactionId, resultData };
  }
}
