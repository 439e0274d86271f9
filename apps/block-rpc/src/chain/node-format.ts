/**
 * The node format of a block, transaction or receipt record (`{ format: "node" }`, docs/api.md §5):
 * the Ethereum JSON-RPC shape that web3j's EthBlock.Block, Transaction and TransactionReceipt
 * deserialize unchanged. Every numeric field of a record has a `<name>Raw` sibling with the node's
 * exact 0x hex: that hex becomes the field again (so `value` is the hex of wei, `status` 0x1/0x0,
 * `type` and `yParity` hex) and the `…Raw` field goes. A field the node omitted (null in the
 * record) is left out again, except those the Ethereum shape itself answers as null (pending
 * transactions and blocks, contract creations). Transactions of a block and the logs of a receipt
 * are converted the same way; other fields (passed through as the node sent them) stay.
 */
type Json = Record<string, unknown>;

/** Fields the node answers as null (a pending block or transaction, a contract creation). */
const NULL_IN_NODE_SHAPE = new Set([
  'hash',
  'miner',
  'nonce',
  'blockHash',
  'blockNumber',
  'transactionIndex',
  'to',
  'contractAddress',
]);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function convert(record: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(record)) {
    if (key.endsWith('Raw') && key.length > 3 && key.slice(0, -3) in record) continue;
    const raw = record[`${key}Raw`];
    const next = raw !== undefined ? raw : value;
    if (next === null && !NULL_IN_NODE_SHAPE.has(key)) continue;
    out[key] = next;
  }
  return out;
}

export function toNodeTransaction(record: object): Json {
  return convert(record as Json);
}

export function toNodeReceipt(record: object): Json {
  const out = convert(record as Json);
  if (Array.isArray(out.logs))
    out.logs = out.logs.map((log) => (isObject(log) ? convert(log) : log));
  return out;
}

export function toNodeBlock(record: object): Json {
  const out = convert(record as Json);
  if (Array.isArray(out.transactions)) {
    out.transactions = out.transactions.map((tx) => (isObject(tx) ? convert(tx) : tx));
  }
  return out;
}
