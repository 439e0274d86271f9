import { checkRequest, charsetOf, decodeBody, rawSuccessAnswer } from '@itp/jsonrpc';
import { getBlockParamsSchema } from '@itp/schemas';
import type { BlockService } from '../blocks/block-service.js';
import { toBlockSelector } from '../blocks/block-selector.js';

/**
 * The whole JSON-RPC answer to a POST /block body when that body is one getBlock call (with an
 * id) of a final block held in process memory (BlockService.memoryText): the same bytes the
 * RpcServer would send for it, checked the same way (UTF-8 decoding, envelope, params schema).
 * Undefined for anything else — a batch, a notification, another method, bad input, a block not
 * in memory — which the caller leaves to the RpcServer, unchanged.
 */
export async function cachedGetBlockAnswer(
  blocks: Pick<BlockService, 'memoryText'>,
  body: Buffer,
  contentType: string | undefined,
): Promise<string | undefined> {
  const decoded = decodeBody(body, charsetOf(contentType));
  if (!decoded.ok) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(decoded.text);
  } catch {
    return undefined;
  }
  const checked = checkRequest(payload);
  if (!checked.ok) return undefined;
  const { method, params, hasId, id } = checked.request;
  // `params` omitted is [] (the latest block): never a final block held in memory.
  if (method !== 'getBlock' || !hasId || !Array.isArray(params)) return undefined;
  const parsed = getBlockParamsSchema.safeParse(params);
  if (!parsed.success) return undefined;
  const [block, fullTransactions, options] = parsed.data;
  // The cached text is the record; the node format is converted by the RpcServer's handler.
  if (options?.format === 'node') return undefined;
  const text = await blocks.memoryText(toBlockSelector(block), fullTransactions ?? false);
  return text === undefined ? undefined : rawSuccessAnswer(id, text);
}
