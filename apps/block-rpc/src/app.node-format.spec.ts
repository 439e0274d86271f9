import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  nodeBlockSchema,
  nodeReceiptSchema,
  nodeTransactionSchema,
  type TransactionReceipt,
  type TransactionRecord,
} from '@itp/schemas';
import { createTestDatabase, testRedisUrl, uniquePrefix, type TestDatabase } from '@itp/testing';
import { ALICE, BOB, startScriptableTestChain, type TestChain } from './testing/dev-chain.js';
import { startHarness, type Harness } from './testing/harness.js';

/**
 * `{ format: "node" }` (docs/api.md §5): getBlock, getTransaction and getTransactionReceipt in the
 * Ethereum JSON-RPC shape, read the way web3j reads it and compared with anvil's own eth_* answer.
 */
type Json = Record<string, unknown>;

/** A contract whose every call emits LOG1(topic, 42); a creation that reverts. */
const TOPIC = `0x${'c0'.repeat(32)}`;
const LOGGER_INIT = `0x602c600c600039602c6000f3602a6000527f${TOPIC.slice(2)}60206000a100`;
const REVERTING_INIT = '0x60006000fd';
/** Above Long.MAX_VALUE wei (9.22 ETH), where a decimal string or JSON number breaks web3j. */
const BIG_VALUE = 12_345_678_901_234_567_891n;

/**
 * web3j's Numeric.decodeQuantity: a 0x-prefixed hex string read as a BigInteger. A JSON number,
 * a decimal string or "success" throws, as in web3j (MessageDecodingException).
 */
function decodeQuantity(value: unknown, field: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) {
    throw new Error(`${field}: not a hex quantity: ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}

/** The quantity getters of web3j's EthBlock.Block, Transaction, TransactionReceipt and Log. */
const BLOCK_QUANTITIES = [
  'number',
  'nonce',
  'difficulty',
  'size',
  'gasLimit',
  'gasUsed',
  'timestamp',
  'baseFeePerGas',
  'blobGasUsed',
  'excessBlobGas',
];
const TX_QUANTITIES = [
  'blockNumber',
  'transactionIndex',
  'nonce',
  'value',
  'gasPrice',
  'gas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'chainId',
  'v',
  'type',
  'yParity',
];
const RECEIPT_QUANTITIES = [
  'transactionIndex',
  'blockNumber',
  'cumulativeGasUsed',
  'gasUsed',
  'effectiveGasPrice',
  'status',
  'type',
];
const LOG_QUANTITIES = ['logIndex', 'transactionIndex', 'blockNumber'];

/** Reads every quantity web3j reads (present and non-null ones): each must decode. */
function readLikeWeb3j(object: Json, fields: string[], what: string): Record<string, bigint> {
  const read: Record<string, bigint> = {};
  for (const field of fields) {
    if (object[field] === undefined || object[field] === null) continue;
    read[field] = decodeQuantity(object[field], `${what}.${field}`);
  }
  return read;
}

/** No JSON number anywhere in the answer (web3j's String fields). */
function numbersIn(value: unknown, path = ''): string[] {
  if (typeof value === 'number') return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => numbersIn(item, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => numbersIn(v, `${path}.${k}`));
  }
  return [];
}

/** anvil's own answer with its JSON numbers (blockTimestamp) as the hex they stand for. */
function hexNumbers(value: unknown): unknown {
  if (typeof value === 'number') return `0x${value.toString(16)}`;
  if (Array.isArray(value)) return value.map(hexNumbers);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hexNumbers(v)]));
  }
  return value;
}

let chain: TestChain;
let db: TestDatabase;
let api: Harness;
let bigHash: string;
let legacyHash: string;
let logCallHash: string;
let revertedHash: string;

beforeAll(async () => {
  chain = await startScriptableTestChain();
  db = await createTestDatabase();
  bigHash = await chain.send(BIG_VALUE);
  legacyHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, to: BOB, value: '0x5', gasPrice: '0x77359400' },
  ]);
  await chain.waitMined(legacyHash);
  const deployHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, data: LOGGER_INIT },
  ]);
  await chain.waitMined(deployHash);
  const deployed = await chain.call<{ contractAddress: string }>('eth_getTransactionReceipt', [
    deployHash,
  ]);
  logCallHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, to: deployed.contractAddress, data: '0x' },
  ]);
  await chain.waitMined(logCallHash);
  revertedHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, data: REVERTING_INIT, gas: '0x100000' },
  ]);
  await chain.waitMined(revertedHash);
  await chain.mine(4);
  api = await startHarness({
    chainUrl: chain.url,
    databaseUrl: db.url,
    redisUrl: testRedisUrl(),
    keyPrefix: uniquePrefix('block-node-format'),
    // Blocks 1-5 final: cached for good, and getBlock of them answered from memory.
    env: { BLOCK_FINALITY_DEPTH: '2' },
  });
});

afterAll(async () => {
  await api?.close();
  await db?.drop();
  await chain?.stop();
});

const NODE = { format: 'node' };

describe('getTransaction with { format: "node" }', () => {
  it("is anvil's eth_getTransactionByHash answer, every quantity read as web3j reads it", async () => {
    for (const hash of [bigHash, legacyHash, logCallHash, revertedHash]) {
      const ours = await api.data<Json>('getTransaction', [hash, NODE]);
      const node = await chain.call<Json>('eth_getTransactionByHash', [hash]);
      expect(ours).toEqual(hexNumbers(node));
      expect(numbersIn(ours)).toEqual([]);
      expect(nodeTransactionSchema.safeParse(ours).success).toBe(true);
      readLikeWeb3j(ours, TX_QUANTITIES, 'transaction');
    }
  });

  it('carries a value above 9.22 ETH exactly, type and yParity as hex', async () => {
    const ours = await api.data<Json>('getTransaction', [bigHash, NODE]);
    const read = readLikeWeb3j(ours, TX_QUANTITIES, 'transaction');
    expect(read.value).toBe(BIG_VALUE);
    expect(ours.type).toBe('0x2');
    expect(ours.yParity).toMatch(/^0x[01]$/);
    const legacy = await api.data<Json>('getTransaction', [legacyHash, NODE]);
    expect(legacy.type).toBe('0x0');
  });

  it('leaves the default answer (the record) unchanged', async () => {
    const record = await api.data<TransactionRecord>('getTransaction', [bigHash]);
    expect(record.value).toBe(BIG_VALUE.toString());
    expect(record.type).toBe(2);
    expect(await api.data('getTransaction', [bigHash, {}])).toEqual(record);
    expect(await api.data('getTransaction', [bigHash, { format: 'record' }])).toEqual(record);
    expect(() => decodeQuantity(record.value, 'value')).toThrow();
  });

  it('refuses an unknown format or option (-32602)', async () => {
    expect((await api.call('getTransaction', [bigHash, { format: 'hex' }])).error?.code).toBe(
      -32602,
    );
    expect((await api.call('getTransaction', [bigHash, { fmt: 'node' }])).error?.code).toBe(-32602);
  });
});

describe('getTransactionReceipt with { format: "node" }', () => {
  it("is anvil's eth_getTransactionReceipt answer, status 0x1 / 0x0", async () => {
    for (const hash of [bigHash, legacyHash, logCallHash, revertedHash]) {
      const ours = await api.data<Json>('getTransactionReceipt', [hash, NODE]);
      const node = await chain.call<Json>('eth_getTransactionReceipt', [hash]);
      expect(ours).toEqual(hexNumbers(node));
      expect(numbersIn(ours)).toEqual([]);
      expect(nodeReceiptSchema.safeParse(ours).success).toBe(true);
      readLikeWeb3j(ours, RECEIPT_QUANTITIES, 'receipt');
      for (const log of ours.logs as Json[]) readLikeWeb3j(log, LOG_QUANTITIES, 'log');
    }
    // web3j's isStatusOK(): decodeQuantity(status) == 1.
    const ok = await api.data<Json>('getTransactionReceipt', [bigHash, NODE]);
    expect(readLikeWeb3j(ok, RECEIPT_QUANTITIES, 'receipt').status).toBe(1n);
    const reverted = await api.data<Json>('getTransactionReceipt', [revertedHash, NODE]);
    expect(readLikeWeb3j(reverted, RECEIPT_QUANTITIES, 'receipt').status).toBe(0n);
    const withLog = await api.data<Json>('getTransactionReceipt', [logCallHash, NODE]);
    expect((withLog.logs as Json[]).length).toBe(1);
  });

  it('leaves the default answer (the record) unchanged', async () => {
    const record = await api.data<TransactionReceipt>('getTransactionReceipt', [bigHash]);
    expect(record.status).toBe('success');
    expect(() => decodeQuantity(record.status, 'status')).toThrow();
  });
});

describe('getBlock with { format: "node" }', () => {
  it("is anvil's eth_getBlockByNumber answer, with hashes or full transactions", async () => {
    const head = await chain.head();
    for (let n = 0; n <= head; n += 1) {
      for (const full of [false, true]) {
        const quantity = `0x${n.toString(16)}`;
        const ours = await api.data<Json>('getBlock', [n, full, NODE]);
        const node = await chain.call<Json>('eth_getBlockByNumber', [quantity, full]);
        expect(ours).toEqual(hexNumbers(node));
        expect(numbersIn(ours)).toEqual([]);
        expect(nodeBlockSchema.safeParse(ours).success).toBe(true);
        readLikeWeb3j(ours, BLOCK_QUANTITIES, 'block');
        if (full) {
          for (const tx of ours.transactions as Json[]) readLikeWeb3j(tx, TX_QUANTITIES, 'tx');
        }
        // By hash and by tag too.
        expect(await api.data('getBlock', [node.hash, full, NODE])).toEqual(ours);
      }
    }
    const latest = await api.data<Json>('getBlock', ['latest', false, NODE]);
    expect(latest.number).toBe(`0x${head.toString(16)}`);
  });

  it('answers the node format for a final block held in memory (the POST /block fast path)', async () => {
    // Twice the record first: the block is then final and in process memory.
    const record = await api.data<Json>('getBlock', [1, true]);
    expect(await api.data('getBlock', [1, true])).toEqual(record);
    expect(record.number).toBe(1);
    const ours = await api.data<Json>('getBlock', [1, true, NODE]);
    expect(ours.number).toBe('0x1');
    const tx = (ours.transactions as Json[])[0]!;
    expect(readLikeWeb3j(tx, TX_QUANTITIES, 'tx').value).toBe(BIG_VALUE);
    // And the default stays the record.
    expect(await api.data('getBlock', [1, true])).toEqual(record);
    expect(await api.data('getBlock', [1, true, {}])).toEqual(record);
  });
});
