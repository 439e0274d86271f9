import { describe, expect, it } from '@jest/globals';
import { blockRecordSchema } from '@itp/schemas';
import { NodeAnswerError } from '../errors.js';
import { mapFullBlock, toHashView } from './map-block.js';

const h = (byte: string) => `0x${byte.repeat(32)}`;
const BLOOM = `0x${'00'.repeat(256)}`;

/** A block as anvil 1.7 sends it for eth_getBlockByNumber(n, true). */
function anvilBlock(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    hash: h('11'),
    parentHash: h('22'),
    sha3Uncles: h('33'),
    miner: '0x0000000000000000000000000000000000000000',
    stateRoot: h('44'),
    transactionsRoot: h('55'),
    receiptsRoot: h('66'),
    logsBloom: BLOOM,
    difficulty: '0x0',
    number: '0x1',
    gasLimit: '0x1c9c380',
    gasUsed: '0x5208',
    timestamp: '0x6b025382',
    extraData: '0x',
    mixHash: h('77'),
    nonce: '0x0000000000000000',
    baseFeePerGas: '0x3b9aca00',
    withdrawalsRoot: h('88'),
    blobGasUsed: '0x0',
    totalDifficulty: '0x0',
    size: '0x2db',
    uncles: [],
    transactions: [
      {
        type: '0x2',
        chainId: '0x7a69',
        nonce: '0x0',
        gas: '0x5208',
        maxFeePerGas: '0x77359400',
        maxPriorityFeePerGas: '0x3b9aca00',
        to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
        value: '0xde0b6b3a7640000',
        accessList: [],
        input: '0x',
        r: '0x7ca003a6a2adcce9641e808dcecdedf7c37ca5f48c326a17e25406471de8d1ee',
        s: '0x53a15f6568f6cf8ccf47cb2f77585c4b71ba3a579bfcc82de7a528889b92a705',
        yParity: '0x0',
        v: '0x0',
        hash: h('99'),
        blockHash: h('11'),
        blockNumber: '0x1',
        transactionIndex: '0x0',
        from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        gasPrice: '0x77359400',
      },
    ],
    withdrawals: [],
    ...overrides,
  };
}

describe('mapFullBlock', () => {
  it('maps every field of the block record with its type', () => {
    const block = mapFullBlock(anvilBlock());
    expect(block).toMatchObject({
      hash: h('11'),
      parentHash: h('22'),
      stateRoot: h('44'),
      transactionsRoot: h('55'),
      receiptsRoot: h('66'),
      sha3Uncles: h('33'),
      mixHash: h('77'),
      extraData: '0x',
      logsBloom: BLOOM,
      miner: '0x0000000000000000000000000000000000000000',
      number: 1,
      gasLimit: 30_000_000,
      gasUsed: 21_000,
      timestamp: 0x6b025382,
      difficulty: 0,
      totalDifficulty: 0,
      nonce: 0,
      size: 0x2db,
      numberRaw: '0x1',
      gasLimitRaw: '0x1c9c380',
      gasUsedRaw: '0x5208',
      timestampRaw: '0x6b025382',
      difficultyRaw: '0x0',
      totalDifficultyRaw: '0x0',
      nonceRaw: '0x0000000000000000',
      sizeRaw: '0x2db',
      baseFeePerGas: 1_000_000_000,
      baseFeePerGasRaw: '0x3b9aca00',
      sealFields: null,
      author: null,
      uncles: [],
    });
    expect(block.transactions[0]).toMatchObject({ hash: h('99'), value: '1000000000000000000' });
    expect(blockRecordSchema.safeParse(block).success).toBe(true);
  });

  it('has every record field, and passes node fields it does not map through as sent', () => {
    const withdrawal = {
      index: '0x0',
      validatorIndex: '0x1',
      address: h('ab').slice(0, 42),
      amount: '0x2',
    };
    const block = mapFullBlock(
      anvilBlock({
        withdrawals: [withdrawal],
        parentBeaconBlockRoot: h('aa'),
        requestsHash: h('bb'),
        excessBlobGas: '0x20000',
        someFutureField: { x: '0x1' },
      }),
    );
    for (const key of Object.keys(blockRecordSchema.shape)) {
      if (
        blockRecordSchema.shape[key as keyof typeof blockRecordSchema.shape].safeParse(undefined)
          .success
      )
        continue;
      expect(block).toHaveProperty(key);
    }
    expect(block).toMatchObject({
      withdrawals: [withdrawal],
      withdrawalsRoot: h('88'),
      parentBeaconBlockRoot: h('aa'),
      requestsHash: h('bb'),
      someFutureField: { x: '0x1' },
      blobGasUsed: 0,
      blobGasUsedRaw: '0x0',
      excessBlobGas: 0x20000,
      excessBlobGasRaw: '0x20000',
    });
    expect(blockRecordSchema.safeParse(block).success).toBe(true);
  });

  it('turns fields the node omits into null', () => {
    const raw = anvilBlock();
    for (const field of ['totalDifficulty', 'mixHash', 'baseFeePerGas', 'difficulty']) {
      delete raw[field];
    }
    const block = mapFullBlock(raw);
    expect(block).toMatchObject({
      totalDifficulty: null,
      totalDifficultyRaw: null,
      mixHash: null,
      baseFeePerGas: null,
      baseFeePerGasRaw: null,
      difficulty: null,
      difficultyRaw: null,
    });
    expect(blockRecordSchema.safeParse(block).success).toBe(true);
  });

  it('a pending block without hash, nonce and miner (geth) maps them to null', () => {
    const block = mapFullBlock(anvilBlock({ hash: null, nonce: null, miner: null }));
    expect(block).toMatchObject({ hash: null, nonce: null, nonceRaw: null, miner: null });
  });

  it('keeps the exact value in …Raw when the integer is beyond 2^53 - 1', () => {
    const block = mapFullBlock(anvilBlock({ totalDifficulty: '0xc70d815d562d3cfa955' }));
    expect(block.totalDifficultyRaw).toBe('0xc70d815d562d3cfa955');
    expect(block.totalDifficulty).toBe(Number(BigInt('0xc70d815d562d3cfa955')));
    expect(Number.isSafeInteger(block.totalDifficulty)).toBe(false);
    expect(blockRecordSchema.safeParse(block).success).toBe(true);
  });

  it('passes Parity-style sealFields and author through', () => {
    const block = mapFullBlock(
      anvilBlock({
        sealFields: ['0xa0', '0x88'],
        author: '0x00000000000000000000000000000000000000aa',
      }),
    );
    expect(block.sealFields).toEqual(['0xa0', '0x88']);
    expect(block.author).toBe('0x00000000000000000000000000000000000000aa');
  });

  it.each([
    ['parentHash', undefined],
    ['number', 'twelve'],
    ['gasUsed', '0x'],
    ['miner', '0x1234'],
    ['uncles', 'none'],
    ['transactions', [h('99')]],
  ])('refuses a block whose %s is %j', (field, value) => {
    expect(() => mapFullBlock(anvilBlock({ [field]: value }))).toThrow(NodeAnswerError);
  });

  it('refuses an answer that is no object', () => {
    expect(() => mapFullBlock('0x1')).toThrow(NodeAnswerError);
  });
});

describe('toHashView', () => {
  it('replaces the transactions by their hashes and keeps the rest', () => {
    const full = mapFullBlock(anvilBlock());
    const view = toHashView(full);
    expect(view.transactions).toEqual([h('99')]);
    expect({ ...view, transactions: [] }).toEqual({ ...full, transactions: [] });
    expect(full.transactions[0]).toMatchObject({ hash: h('99') });
  });
});
