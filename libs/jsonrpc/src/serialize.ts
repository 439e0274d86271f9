import type { RpcId } from './check-request.js';

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString(10) : value;
}

/**
 * JSON.stringify that writes a bigint as its decimal string instead of throwing. Still throws on
 * circular structures (the caller turns that into -32603).
 */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, bigintReplacer) ?? 'null';
}

/**
 * JSON text serialised once (a cached final block), to be sent as a method's `resultData`
 * without being parsed or built again per request: return `rawJson(text)` from a handler and the
 * server splices the text into the answer. The text must be valid JSON (it is trusted, not
 * checked). Anywhere else in a result it still serialises correctly (`toJSON` parses it: slower).
 */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** See RawJson. */
export function rawJson(text: string): RawJson {
  return new RawJson(text);
}

/**
 * The whole answer to call `id` whose success `resultData` is the JSON text `dataText` (and
 * `TransactionID` when given): the bytes RpcServer sends for a handler that returned
 * `rawJson(dataText)`, members in the order stringifyJson writes them. For a transport that
 * answers a cached result itself (block-rpc's fast path); `dataText` is trusted, as in RawJson.
 */
export function rawSuccessAnswer(id: RpcId, dataText: string, transactionId?: string): string {
  return (
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},` +
    `"result":{"resultCode":"200","resultMessage":"Success",` +
    (transactionId === undefined ? '' : `"TransactionID":${JSON.stringify(transactionId)},`) +
    `"resultData":${dataText}}}`
  );
}
