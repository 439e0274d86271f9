import type { RpcMethod } from '@itp/jsonrpc';
import recorded from './recorded-examples.json' with { type: 'json' };

/**
 * The OpenRPC examples of `/token` and `/token/erc20`: real answers of a dev stack, recorded by
 * tools/api-docs/record-examples.ts into recorded-examples.json (secrets replaced by placeholders:
 * tools/api-docs/recorder/placeholders.ts). examples.spec.ts checks that every method has one and
 * that each still fits the method's own schemas.
 */

/** The `result` member of a successful JSON-RPC answer, as recorded. */
export interface RecordedResult {
  resultCode: string;
  resultMessage: string;
  TransactionID?: string;
  resultData: unknown;
}

/** One recorded call: params as sent, result as answered. */
export interface RecordedRpcExample {
  name: string;
  params: unknown;
  result: RecordedResult;
}

export type RpcApi = 'token' | 'erc20';

export interface RpcExamplesFile {
  $comment: string;
  recordedAt: string;
  /** By API, then by method name. */
  apis: Record<RpcApi, Record<string, RecordedRpcExample[]>>;
}

export const RECORDED_RPC_EXAMPLES = recorded as RpcExamplesFile;

type MethodExample = NonNullable<RpcMethod['examples']>[number];

/**
 * A recorded call as RpcMethod.examples holds it: `result` is what the handler returns
 * (resultData, or `{ transactionId, resultData }` for a transaction), the document wraps it again.
 */
export function toMethodExample(
  method: Pick<RpcMethod, 'kind'>,
  example: RecordedRpcExample,
): MethodExample {
  const { result } = example;
  return {
    name: example.name,
    params: example.params,
    result:
      method.kind === 'transaction'
        ? { transactionId: result.TransactionID, resultData: result.resultData }
        : result.resultData,
  };
}

/** `methods` with the recorded examples of `api` attached (a method without any keeps none). */
export function withRecordedExamples(
  api: RpcApi,
  methods: RpcMethod[],
  file: RpcExamplesFile = RECORDED_RPC_EXAMPLES,
): RpcMethod[] {
  const byMethod = file.apis[api];
  return methods.map((method) => {
    const examples = byMethod[method.name] ?? [];
    if (examples.length === 0) return method;
    return { ...method, examples: examples.map((example) => toMethodExample(method, example)) };
  });
}
