import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, testRedisUrl, uniquePrefix, type TestDatabase } from '@itp/testing';
import { ALICE, BOB, startScriptableTestChain, type TestChain } from '../testing/dev-chain.js';
import { startHarness, type Harness } from '../testing/harness.js';

// Every field the node answers must reach the caller: compared here, field by field, against
// anvil's own answer for a block holding a transfer and a call that emits a log.

/** A contract whose every call emits LOG1(topic, 42). */
const TOPIC = `0x${'c0'.repeat(32)}`;
const LOGGER_INIT = `0x602c600c600039602c6000f3602a6000527f${TOPIC.slice(2)}60206000a100`;

type Obj = Record<string, unknown>;

/** How the service may present a node field: as sent, or converted with its …Raw companion. */
const WEI_AMOUNTS = new Set([
  'value',
  'gasPrice',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'effectiveGasPrice',
  'blobGasPrice',
  'maxFeePerBlobGas',
]);
const STATUS = { '0x1': 'success', '0x0': 'reverted' } as const;

/**
 * Checks that every field of the node's object is in the service's object: the same value, or
 * the hex quantity as an integer (or as a decimal string of wei) with the exact hex in `…Raw`.
 * Nested objects (transactions, logs) are compared the same way. Returns the fields it checked.
 */
function expectSameFields(node: Obj, ours: Obj, where: string, seen: Set<string>): void {
  for (const [key, sent] of Object.entries(node)) {
    const path = `${where}.${key}`;
    seen.add(key);
    expect({ path, present: key in ours }).toEqual({ path, present: true });
    const got = ours[key];
    if (Array.isArray(sent) && sent.some((item) => typeof item === 'object' && item !== null)) {
      expect(Array.isArray(got)).toBe(true);
      expect((got as unknown[]).length).toBe(sent.length);
      sent.forEach((item, i) =>
        expectSameFields(item as Obj, (got as Obj[])[i] as Obj, `${path}[${i}]`, seen),
      );
      continue;
    }
    if (key === 'status' && typeof sent === 'string') {
      expect({ path, got }).toEqual({ path, got: STATUS[sent as keyof typeof STATUS] });
      continue;
    }
    if (isDeepStrictEqual(got, sent)) continue;
    // Converted: then the exact hex is kept beside it, for every numeric field (one rule).
    expect({ path, sent: typeof sent }).toEqual({ path, sent: 'string' });
    const exact = BigInt(sent as string);
    if (WEI_AMOUNTS.has(key)) expect({ path, got }).toEqual({ path, got: exact.toString(10) });
    else expect({ path, got }).toEqual({ path, got: Number(exact) });
    expect({ path, raw: ours[`${key}Raw`] }).toEqual({ path, raw: sent });
  }
}

let chain: TestChain;
let db: TestDatabase;
let api: Harness;
let logCallHash: string;
let transferHash: string;
let blockNumber: string;

beforeAll(async () => {
  chain = await startScriptableTestChain();
  db = await createTestDatabase();
  const deployHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, data: LOGGER_INIT },
  ]);
  await chain.waitMined(deployHash);
  const { contractAddress } = await chain.call<{ contractAddress: string }>(
    'eth_getTransactionReceipt',
    [deployHash],
  );
  // Two transactions in one block: mining paused, both sent, one block mined.
  await chain.call('evm_setAutomine', [false]);
  transferHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, to: BOB, value: '0xde0b6b3a7640000' },
  ]);
  logCallHash = await chain.call<string>('eth_sendTransaction', [
    { from: ALICE, to: contractAddress, data: '0x' },
  ]);
  await chain.mine(1);
  await chain.call('evm_setAutomine', [true]);
  await chain.waitMined(logCallHash);
  const receipt = await chain.call<{ blockNumber: string }>('eth_getTransactionReceipt', [
    logCallHash,
  ]);
  blockNumber = receipt.blockNumber;
  api = await startHarness({
    chainUrl: chain.url,
    databaseUrl: db.url,
    redisUrl: testRedisUrl(),
    keyPrefix: uniquePrefix('block-complete'),
  });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await db?.drop();
  await chain?.stop();
});

describe('every field of the node reaches the caller', () => {
  it('getBlock with full transactions: every block and transaction field of the node', async () => {
    const node = await chain.call<Obj>('eth_getBlockByNumber', [blockNumber, true]);
    expect((node['transactions'] as unknown[]).length).toBe(2);
    const ours = await api.data<Obj>('getBlock', [Number(blockNumber), true]);
    const seen = new Set<string>();
    expectSameFields(node, ours, 'block', seen);
    // The later-fork fields anvil sends today are among them.
    for (const key of ['withdrawals', 'withdrawalsRoot', 'blobGasUsed', 'excessBlobGas']) {
      expect(seen).toContain(key);
    }
    expect(ours['blobGasUsedRaw']).toBe(node['blobGasUsed']);
    expect(ours['excessBlobGasRaw']).toBe(node['excessBlobGas']);
  });

  it('getBlock with hashes: the same block fields, transactions as hashes', async () => {
    const node = await chain.call<Obj>('eth_getBlockByNumber', [blockNumber, false]);
    const ours = await api.data<Obj>('getBlock', [blockNumber]);
    expectSameFields(node, ours, 'block', new Set());
    expect(ours['transactions']).toEqual([transferHash, logCallHash]);
  });

  it('getTransaction: every field, with the web3j …Raw companions', async () => {
    for (const hash of [transferHash, logCallHash]) {
      const node = await chain.call<Obj>('eth_getTransactionByHash', [hash]);
      const ours = await api.data<Obj>('getTransaction', [hash]);
      expectSameFields(node, ours, 'transaction', new Set());
      for (const field of [
        'nonce',
        'blockNumber',
        'transactionIndex',
        'value',
        'gasPrice',
        'gas',
        'maxFeePerGas',
        'maxPriorityFeePerGas',
        'chainId',
        'type',
        'yParity',
      ]) {
        expect({ field, raw: ours[`${field}Raw`] }).toEqual({ field, raw: node[field] });
      }
    }
  });

  it('getTransactionReceipt: every receipt and log field, with the …Raw companions', async () => {
    const node = await chain.call<Obj>('eth_getTransactionReceipt', [logCallHash]);
    const ours = await api.data<Obj>('getTransactionReceipt', [logCallHash]);
    const seen = new Set<string>();
    expectSameFields(node, ours, 'receipt', seen);
    expect((ours['logs'] as Obj[])[0]?.['topics']).toEqual([TOPIC]);
    for (const field of [
      'transactionIndex',
      'blockNumber',
      'cumulativeGasUsed',
      'gasUsed',
      'effectiveGasPrice',
      'status',
      'type',
    ]) {
      expect({ field, raw: ours[`${field}Raw`] }).toEqual({ field, raw: node[field] });
    }
    // A timestamp the node sends as a JSON number (anvil) gets its hex companion too.
    if (typeof node['blockTimestamp'] === 'number') {
      expect(ours['blockTimestampRaw']).toBe(`0x${node['blockTimestamp'].toString(16)}`);
    }
    const [nodeLog] = node['logs'] as Obj[];
    const [ourLog] = ours['logs'] as Obj[];
    for (const field of ['logIndex', 'transactionIndex', 'blockNumber']) {
      expect({ field, raw: ourLog?.[`${field}Raw`] }).toEqual({ field, raw: nodeLog?.[field] });
    }
  });
});
