/** `itp block get [<number> | <0x hash> | <0x hex number> | latest | earliest | …] [--full]`. */
import type { BlockRecord, BlockSelectorParam } from '@itp/client';
import { UsageError } from '../errors.js';
import { cellText, keyValues, table } from '../output/table.js';
import type { Command } from './command.js';

const TAGS = new Set(['latest', 'earliest', 'pending', 'safe', 'finalized']);

/** The block argument as getBlock takes it (a decimal number becomes a JSON number). */
export function parseBlockSelector(raw: string | undefined): BlockSelectorParam {
  if (raw === undefined) return 'latest';
  const value = raw.trim();
  if (TAGS.has(value.toLowerCase())) return value.toLowerCase() as BlockSelectorParam;
  if (/^\d+$/.test(value)) {
    const number = Number(value);
    if (!Number.isSafeInteger(number)) throw new UsageError(`block number too large: ${value}`);
    return number;
  }
  if (/^0x[0-9a-fA-F]{64}$/.test(value) || /^0x[0-9a-fA-F]{1,16}$/.test(value)) return value;
  throw new UsageError(
    `a block is a number, a 0x block hash (64 hex digits), a 0x hex number, or one of ${[...TAGS].join(', ')}; got "${raw}"`,
  );
}

function blockText(block: BlockRecord): string {
  const summary = keyValues({
    number: block.number,
    hash: block.hash,
    parentHash: block.parentHash,
    timestamp: `${block.timestamp} (${new Date(block.timestamp * 1000).toISOString()})`,
    miner: block.miner,
    gasUsed: block.gasUsed,
    gasLimit: block.gasLimit,
    baseFeePerGas: block.baseFeePerGas,
    size: block.size,
    transactions: block.transactions.length,
  });
  if (block.transactions.length === 0) return summary;
  const rows = block.transactions.map((tx) =>
    typeof tx === 'string'
      ? { hash: tx }
      : { hash: tx.hash, from: tx.from, to: tx.to, value: cellText(tx.value) },
  );
  const columns =
    typeof block.transactions[0] === 'string' ? ['hash'] : ['hash', 'from', 'to', 'value'];
  return `${summary}\n${table(rows, columns)}`;
}

export const blockGetCommand: Command = {
  words: ['block', 'get'],
  options: { full: { type: 'boolean' } },
  async run(ctx) {
    if (ctx.args.length > 1) throw new UsageError('block get takes one block (default: latest)');
    const selector = parseBlockSelector(ctx.args[0]);
    const block = await ctx.client.block.getBlock(selector, {
      fullTransactions: ctx.values.full === true,
    });
    return { json: block, text: blockText(block) };
  },
};
