import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  blockRecordSchema,
  transactionReceiptSchema,
  transactionRecordSchema,
  type BlockRecord,
  type TransactionReceipt,
  type TransactionRecord,
} from '@itp/schemas';
import { createTestDatabase, testRedisUrl, uniquePrefix, type TestDatabase } from '@itp/testing';
import { ALICE, BOB, startScriptableTestChain, type TestChain } from './testing/dev-chain.js';
import { startHarness, type Harness } from './testing/harness.js';

/** A contract whose every call emits LOG1(topic, 42). */
const TOPIC = `0x${'c0'.repeat(32)}`;
const LOGGER_INIT = `0x602c600c600039602c6000f3602a6000527f${TOPIC.slice(2)}60206000a100`;
const REVERTING_INIT = '0x60006000fd';

const INTEGER_FIELDS = [
  'number',
  'gasLimit',
  'gasUsed',
  'timestamp',
  'difficulty',
  'totalDifficulty',
  'nonce',
  'size',
] as const;
const HEX_FIELDS = [
  'hash',
  'parentHash',
  'stateRoot',
  'transactionsRoot',
  'receiptsRoot',
  'sha3Uncles',
  'mixHash',
  'extraData',
  'logsBloom',
] as const;

let chain: TestChain;
let db: TestDatabase;
let api: Harness;
let transferHash: string;
let legacyHash: string;
let deployHash: string;
let logCallHash: string;
let revertedHash: string;
let contract: string;

beforeAll(async () => {
  chain = await startScriptableTestChain();
  db = await createTestDatabase();
  transferHash = await chain.send(10n ** 18n);
  legacyHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, to: BOB, value: '0x5', gasPrice: '0x77359400' },
  ]);
  await chain.waitMined(legacyHash);
  deployHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, data: LOGGER_INIT },
  ]);
  await chain.waitMined(deployHash);
  const receipt = await chain.call<{ contractAddress: string }>('eth_getTransactionReceipt', [
    deployHash,
  ]);
  contract = receipt.contractAddress;
  logCallHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, to: contract, data: '0x' },
  ]);
  await chain.waitMined(logCallHash);
  revertedHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, data: REVERTING_INIT, gas: '0x100000' },
  ]);
  await chain.waitMined(revertedHash);
  await chain.mine(3);
  api = await startHarness({
    chainUrl: chain.url,
    databaseUrl: db.url,
    redisUrl: testRedisUrl(),
    keyPrefix: uniquePrefix('block-app'),
  });
});

afterAll(async () => {
  await api?.close();
  await db?.drop();
  await chain?.stop();
});

async function nodeBlock(tag: string): Promise<Record<string, unknown>> {
  return chain.call('eth_getBlockByNumber', [tag, false]);
}

describe('getBlock', () => {
  it('[] is the latest block, with every field of the record and its type', async () => {
    const head = await chain.head();
    const block = await api.data<BlockRecord>('getBlock', []);
    const raw = await nodeBlock(`0x${head.toString(16)}`);
    expect(blockRecordSchema.safeParse(block).success).toBe(true);
    expect(block.number).toBe(head);
    for (const field of HEX_FIELDS) {
      expect(block[field]).toBe(raw[field]);
      expect(block[field]).toMatch(/^0x[0-9a-f]*$/);
    }
    expect(block.miner).toBe(raw.miner);
    expect(block.miner).toMatch(/^0x[0-9a-f]{40}$/);
    for (const field of INTEGER_FIELDS) {
      expect(Number.isSafeInteger(block[field])).toBe(true);
      expect(block[`${field}Raw`]).toBe(raw[field]);
      expect(block[field]).toBe(Number(BigInt(raw[field] as string)));
    }
    expect(block.baseFeePerGas).toBe(Number(BigInt(raw.baseFeePerGas as string)));
    expect(block.baseFeePerGasRaw).toBe(raw.baseFeePerGas);
    expect(block.sealFields).toBeNull();
    expect(block.author).toBeNull();
    expect(block.uncles).toEqual([]);
    expect(block.transactions).toEqual([]);
    expect(Object.keys(block).sort()).toEqual(Object.keys(blockRecordSchema.shape).sort());
  });

  it('finds a block by number, by hex quantity, by hash and "earliest"', async () => {
    const byNumber = await api.data<BlockRecord>('getBlock', [1]);
    expect(byNumber.number).toBe(1);
    expect(byNumber.transactions).toEqual([transferHash]);
    expect(await api.data('getBlock', ['0x1'])).toEqual(byNumber);
    expect(await api.data('getBlock', [byNumber.hash])).toEqual(byNumber);
    expect(await api.data('getBlock', [byNumber.hash?.toUpperCase().replace('0X', '0x')])).toEqual(
      byNumber,
    );
    const earliest = await api.data<BlockRecord>('getBlock', ['earliest']);
    expect(earliest.number).toBe(0);
    expect(earliest.parentHash).toBe(`0x${'0'.repeat(64)}`);
  });

  it('answers the tags latest, pending, safe and finalized', async () => {
    const head = await chain.head();
    expect((await api.data<BlockRecord>('getBlock', ['latest'])).number).toBe(head);
    expect((await api.data<BlockRecord>('getBlock', ['pending'])).number).toBe(head + 1);
    for (const tag of ['safe', 'finalized']) {
      const block = await api.data<BlockRecord>('getBlock', [tag]);
      expect(block.number).toBe(Number(BigInt((await nodeBlock(tag)).number as string)));
    }
  });

  it('gives transaction records when the second param is true, hashes when false', async () => {
    const full = await api.data<BlockRecord>('getBlock', [1, true]);
    const tx = full.transactions[0] as TransactionRecord;
    expect(transactionRecordSchema.safeParse(tx).success).toBe(true);
    expect(tx).toMatchObject({ hash: transferHash, blockNumber: 1, value: '1000000000000000000' });
    const hashes = await api.data<BlockRecord>('getBlock', [1, false]);
    expect(hashes.transactions).toEqual([transferHash]);
    expect({ ...full, transactions: [] }).toEqual({ ...hashes, transactions: [] });
  });

  it('an unknown block is service error "404" naming the block', async () => {
    const beyond = (await chain.head()) + 1000;
    const byNumber = await api.call('getBlock', [beyond]);
    expect(byNumber.result).toEqual({
      resultCode: '404',
      resultMessage: `Block ${beyond} not found`,
      resultData: '',
    });
    const hash = `0x${'ab'.repeat(32)}`;
    const byHash = await api.call('getBlock', [hash]);
    expect(byHash.result?.resultCode).toBe('404');
    expect(byHash.result?.resultMessage).toContain(hash);
    const byHex = await api.call('getBlock', [`0x${beyond.toString(16)}`, true]);
    expect(byHex.result?.resultCode).toBe('404');
  });

  it.each<[string, unknown]>([
    ['a negative number', [-1]],
    ['a fraction', [1.5]],
    ['a number beyond 2^53 - 1', [2 ** 53]],
    ['a decimal string', ['12']],
    ['an unknown tag', ['newest']],
    ['bad hex', ['0xzz']],
    ['a hash of the wrong length', [`0x${'a'.repeat(63)}`]],
    ['null', [null]],
    ['an object', [{ number: 1 }]],
    ['a non-boolean flag', ['latest', 'true']],
    ['a third element', ['latest', true, 1]],
    ['params as an object', { block: 'latest' }],
  ])('refuses %s with -32602', async (_what, params) => {
    const answer = await api.call('getBlock', params);
    expect(answer.result).toBeUndefined();
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.msg).toBe(answer.error?.message);
  });
});

describe('getBlockNumber', () => {
  it('is the number of the latest block', async () => {
    expect(await api.data('getBlockNumber', [])).toBe(await chain.head());
    expect(await api.data('getBlockNumber')).toBe(await chain.head());
  });

  it('refuses params with -32602', async () => {
    expect((await api.call('getBlockNumber', [1])).error?.code).toBe(-32602);
  });
});

describe('getTransaction', () => {
  it('normalises an EIP-1559 transfer', async () => {
    const tx = await api.data<TransactionRecord>('getTransaction', [transferHash]);
    expect(transactionRecordSchema.safeParse(tx).success).toBe(true);
    expect(tx).toMatchObject({
      hash: transferHash,
      blockNumber: 1,
      transactionIndex: 0,
      from: ALICE,
      to: BOB,
      value: '1000000000000000000',
      gas: 21_000,
      nonce: 0,
      input: '0x',
      type: 2,
      chainId: 31337,
      accessList: [],
    });
    expect(tx.blockHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(tx.maxFeePerGas).toMatch(/^[1-9][0-9]*$/);
    expect(tx.yParity === 0 || tx.yParity === 1).toBe(true);
  });

  it('normalises a legacy transaction and a contract creation', async () => {
    const legacy = await api.data<TransactionRecord>('getTransaction', [legacyHash]);
    expect(legacy).toMatchObject({
      type: 0,
      gasPrice: '2000000000',
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      yParity: null,
      accessList: null,
      value: '5',
    });
    const deploy = await api.data<TransactionRecord>('getTransaction', [deployHash]);
    expect(deploy.to).toBeNull();
    expect(deploy.input).toBe(LOGGER_INIT);
  });

  it('an unknown hash is "404", a malformed one -32602', async () => {
    const unknown = `0x${'12'.repeat(32)}`;
    const answer = await api.call('getTransaction', [unknown]);
    expect(answer.result).toEqual({
      resultCode: '404',
      resultMessage: `Transaction ${unknown} not found`,
      resultData: '',
    });
    expect((await api.call('getTransaction', ['0x12'])).error?.code).toBe(-32602);
    expect((await api.call('getTransaction', [])).error?.code).toBe(-32602);
    expect((await api.call('getTransaction', [unknown, true])).error?.code).toBe(-32602);
  });
});

describe('getTransactionReceipt', () => {
  it('normalises a successful call with its log', async () => {
    const receipt = await api.data<TransactionReceipt>('getTransactionReceipt', [logCallHash]);
    expect(transactionReceiptSchema.safeParse(receipt).success).toBe(true);
    expect(receipt).toMatchObject({
      transactionHash: logCallHash,
      from: ALICE,
      to: contract,
      contractAddress: null,
      status: 'success',
      type: 2,
    });
    expect(receipt.logs).toMatchObject([
      {
        address: contract,
        topics: [TOPIC],
        data: `0x${'0'.repeat(62)}2a`,
        logIndex: 0,
        transactionIndex: 0,
        transactionHash: logCallHash,
        blockHash: receipt.blockHash,
        blockNumber: receipt.blockNumber,
        removed: false,
      },
    ]);
    expect(receipt.gasUsed).toBeGreaterThan(21_000);
    expect(receipt.effectiveGasPrice).toMatch(/^[1-9][0-9]*$/);
  });

  it('gives the created contract and a reverted status', async () => {
    const deploy = await api.data<TransactionReceipt>('getTransactionReceipt', [deployHash]);
    expect(deploy).toMatchObject({ status: 'success', to: null, contractAddress: contract });
    const reverted = await api.data<TransactionReceipt>('getTransactionReceipt', [revertedHash]);
    expect(reverted.status).toBe('reverted');
  });

  it('an unknown hash is "404"', async () => {
    const answer = await api.call('getTransactionReceipt', [`0x${'34'.repeat(32)}`]);
    expect(answer.result?.resultCode).toBe('404');
  });
});

describe('a pending transaction', () => {
  it('is found with null block fields, and has no receipt ("404") until mined', async () => {
    await chain.call('evm_setAutomine', [false]);
    try {
      const hash = await chain.call<string>('eth_sendTransaction', [
        { from: ALICE, to: BOB, value: '0x7' },
      ]);
      const tx = await api.data<TransactionRecord>('getTransaction', [hash]);
      expect(tx).toMatchObject({
        hash,
        blockHash: null,
        blockNumber: null,
        transactionIndex: null,
      });
      const receipt = await api.call('getTransactionReceipt', [hash]);
      expect(receipt.result?.resultCode).toBe('404');
      expect(receipt.result?.resultMessage).toContain('pending');
    } finally {
      await chain.call('evm_mine');
      await chain.call('evm_setAutomine', [true]);
    }
  });
});

describe('the JSON-RPC envelope at POST /block', () => {
  it('answers a parse error with -32700 and id null', async () => {
    const res = await api.post('{"jsonrpc": "2.0", "method": ');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: unknown; error: { code: number } };
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32700);
  });

  it('answers an invalid request and an empty batch with -32600', async () => {
    const invalid = await (await api.post({ jsonrpc: '1.0', id: 3, method: 'getBlock' })).json();
    expect(invalid).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32600 } });
    const empty = await (await api.post([])).json();
    expect(empty).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers an unknown method and a reserved rpc.* name with -32601 (message and msg)', async () => {
    const unknown = await api.call('getBlocks', []);
    expect(unknown.error?.code).toBe(-32601);
    expect(unknown.error?.msg).toBe(unknown.error?.message);
    expect((await api.call('rpc.getBlock', [])).error?.code).toBe(-32601);
  });

  it('rpc.discover returns the OpenRPC document listing the five methods', async () => {
    const answer = await api.call('rpc.discover');
    const doc = answer.result as unknown as {
      openrpc: string;
      methods: Array<{ name: string; params: Array<{ name: string }> }>;
    };
    expect(doc.openrpc).toMatch(/^1\./);
    expect(doc.methods.map((m) => m.name).sort()).toEqual([
      'getBlock',
      'getBlockNumber',
      'getTransaction',
      'getTransactionReceipt',
      'getTransactionStats',
    ]);
    const getBlock = doc.methods.find((m) => m.name === 'getBlock');
    expect(getBlock?.params.map((p) => p.name)).toEqual(['block', 'fullTransactions', 'options']);
    const getTransaction = doc.methods.find((m) => m.name === 'getTransaction');
    expect(getTransaction?.params.map((p) => p.name)).toEqual(['transactionHash', 'options']);
  });

  it('answers a batch in order, leaving out notifications', async () => {
    const res = await api.post([
      { jsonrpc: '2.0', id: 'a', method: 'getBlockNumber', params: [] },
      { jsonrpc: '2.0', method: 'getBlockNumber', params: [] },
      { jsonrpc: '2.0', id: 'b', method: 'getBlock', params: [-1] },
      { jsonrpc: '2.0', id: 'c', method: 'nope' },
    ]);
    const body = (await res.json()) as Array<{
      id: string;
      result?: unknown;
      error?: { code: number };
    }>;
    expect(body.map((a) => a.id)).toEqual(['a', 'b', 'c']);
    expect(body[0]?.result).toMatchObject({ resultCode: '200' });
    expect(body[1]?.error?.code).toBe(-32602);
    expect(body[2]?.error?.code).toBe(-32601);
  });

  it('answers a notification with 204 and no body', async () => {
    const res = await api.post({ jsonrpc: '2.0', method: 'getBlock', params: [] });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('answers a call with id null', async () => {
    const res = await api.post({ jsonrpc: '2.0', id: null, method: 'getBlockNumber', params: [] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: null, result: { resultCode: '200' } });
  });
});

describe('health and metrics', () => {
  it('is ready when the database, Redis and the chain answer', async () => {
    const res = await fetch(`${api.url}/health/ready`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(body.checks).toEqual({ database: 'ok', redis: 'ok', chain: 'ok' });
  });

  it('exposes the index lag and the cache counters', async () => {
    const text = await (await fetch(`${api.metricsUrl}/metrics`)).text();
    expect(text).toMatch(/^block_index_lag_blocks(\{[^}]*\})? \d+$/m);
    expect(text).toContain('block_cache_lookups_total');
  });
});
