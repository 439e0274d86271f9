import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { encodeRlp, keccak256, toBeArray } from 'ethers';

/** What settleAnvilState found in a state file and did to it. */
export type StateSettlement =
  /** No file yet: anvil starts a new chain. */
  | { outcome: 'absent' }
  /** One genesis block (or none): nothing to do. */
  | { outcome: 'consistent' }
  /** Genesis blocks that are not the chain's were removed; `genesisHash` is the one kept. */
  | { outcome: 'settled'; genesisHash: string; removedBlocks: number }
  /** The file was left as it is; `reason` says why (anvil then serves an arbitrary genesis). */
  | { outcome: 'skipped'; reason: string };

interface StoredBlock {
  header: Record<string, unknown>;
}

/**
 * The header fields in the order of the consensus encoding (yellow paper, then the optional
 * fields of London, Shanghai, Cancun and Prague). The state file names them as eth_getBlock does.
 */
const HEADER_FIELDS: ReadonlyArray<readonly [string, 'bytes' | 'quantity']> = [
  ['parentHash', 'bytes'],
  ['sha3Uncles', 'bytes'],
  ['miner', 'bytes'],
  ['stateRoot', 'bytes'],
  ['transactionsRoot', 'bytes'],
  ['receiptsRoot', 'bytes'],
  ['logsBloom', 'bytes'],
  ['difficulty', 'quantity'],
  ['number', 'quantity'],
  ['gasLimit', 'quantity'],
  ['gasUsed', 'quantity'],
  ['timestamp', 'quantity'],
  ['extraData', 'bytes'],
  ['mixHash', 'bytes'],
  ['nonce', 'bytes'],
  ['baseFeePerGas', 'quantity'],
  ['withdrawalsRoot', 'bytes'],
  ['blobGasUsed', 'quantity'],
  ['excessBlobGas', 'quantity'],
  ['parentBeaconBlockRoot', 'bytes'],
  ['requestsHash', 'bytes'],
];

const quantity = (value: unknown): bigint => BigInt(value as string | number);

/** keccak256 of the RLP-encoded header: the block hash, as the node computes it. */
export function headerHash(header: Record<string, unknown>): string {
  const fields: Array<string | Uint8Array> = [];
  for (const [name, kind] of HEADER_FIELDS) {
    const value = header[name];
    if (value === undefined || value === null) break; // optional fields end the header
    if (kind === 'quantity') fields.push(toBeArray(quantity(value)));
    else fields.push(String(value));
  }
  return keccak256(encodeRlp(fields));
}

const numberOf = (block: StoredBlock): bigint => quantity(block.header.number);

function isStoredBlock(value: unknown): value is StoredBlock {
  const header = (value as { header?: unknown } | null)?.header;
  return typeof header === 'object' && header !== null && 'number' in header;
}

/**
 * Makes an anvil state file (`anvil --state`) name one genesis block, the one its chain grows from.
 *
 * Why: anvil 1.x creates a new genesis block (timestamp = now) at every start, then loads the
 * file's blocks over it, and writes all of them back on exit. After two restarts the file holds
 * several blocks numbered 0, written in hash-map order, and whichever comes last answers for
 * block 0: block 0's hash then changes from one start to the next while block 1 keeps the
 * parentHash of the first genesis, and a follower of the chain (block-rpc's indexer) sees a chain
 * whose blocks do not link.
 *
 * Which one is kept: the genesis whose hash is block 1's parentHash; without a block 1, the
 * earliest (the first start's). Nothing else in the file changes. The file is rewritten only when
 * it holds more than one genesis, through a temporary file and a rename; it is left as it is
 * (outcome 'skipped') when it is not a state file this function understands, or holds a number
 * JSON cannot carry exactly.
 */
export function settleAnvilState(file: string): StateSettlement {
  if (!existsSync(file)) return { outcome: 'absent' };
  let inexact = false;
  let state: { blocks?: unknown };
  try {
    state = JSON.parse(readFileSync(file, 'utf8'), (_key, value: unknown) => {
      if (typeof value === 'number' && !Number.isSafeInteger(value)) inexact = true;
      return value;
    }) as { blocks?: unknown };
  } catch {
    return { outcome: 'skipped', reason: 'the file is not JSON' }; // anvil reports it at start
  }
  const blocks = state?.blocks;
  if (!Array.isArray(blocks) || !blocks.every(isStoredBlock)) {
    return { outcome: 'skipped', reason: 'the file has no list of blocks anvil writes' };
  }
  let choice: Choice;
  try {
    choice = chooseGenesis(blocks);
  } catch {
    return { outcome: 'skipped', reason: 'the file holds a block header of an unknown shape' };
  }
  if ('outcome' in choice) return choice;
  if (inexact) {
    return { outcome: 'skipped', reason: 'the file holds numbers JSON cannot rewrite exactly' };
  }
  const { keep, removed } = choice;
  state.blocks = blocks.filter((b) => numberOf(b) !== 0n || b === keep.block);
  const temporary = `${file}.settling`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
  return { outcome: 'settled', genesisHash: keep.hash, removedBlocks: removed };
}

interface HashedBlock {
  block: StoredBlock;
  hash: string;
}

type Choice =
  | Extract<StateSettlement, { outcome: 'consistent' | 'skipped' }>
  | { keep: HashedBlock; removed: number };

function chooseGenesis(blocks: StoredBlock[]): Choice {
  const genesis = blocks.filter((b) => numberOf(b) === 0n);
  if (genesis.length <= 1) return { outcome: 'consistent' };
  const parents = new Set(
    blocks.filter((b) => numberOf(b) === 1n).map((b) => String(b.header.parentHash).toLowerCase()),
  );
  if (parents.size > 1) {
    return { outcome: 'skipped', reason: 'the file holds several blocks 1 with other parents' };
  }
  const hashed = genesis.map((block) => ({ block, hash: headerHash(block.header) }));
  const [parent] = [...parents];
  const keep = parent
    ? hashed.find((g) => g.hash === parent)
    : hashed.reduce((a, b) => (earlier(b, a) ? b : a));
  if (!keep) {
    return {
      outcome: 'skipped',
      reason: "no genesis block in the file hashes to block 1's parent",
    };
  }
  return { keep, removed: genesis.length - 1 };
}

/** Earlier timestamp first; the hash breaks ties so that the choice never depends on file order. */
function earlier(a: HashedBlock, b: HashedBlock): boolean {
  const ta = quantity(a.block.header.timestamp);
  const tb = quantity(b.block.header.timestamp);
  return ta < tb || (ta === tb && a.hash < b.hash);
}
