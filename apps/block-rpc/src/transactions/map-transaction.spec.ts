import { describe, expect, it } from '@jest/globals';
import { transactionRecordSchema } from '@itp/schemas';
import { NodeAnswerError } from '../errors.js';
import { mapTransaction } from './map-transaction.js';

const h = (byte: string) => `0x${byte.repeat(32)}`;
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

const eip1559 = {
  type: '0x2',
  chainId: '0x7a69',
  nonce: '0x5',
  gas: '0x5208',
  maxFeePerGas: '0x77359400',
  maxPriorityFeePerGas: '0x3b9aca00',
  to: TO,
  value: '0x56bc75e2d63100000',
  accessList: [{ address: TO, storageKeys: [h('01')] }],
  input: '0x',
  r: '0x7ca0',
  s: '0x53a1',
  yParity: '0x1',
  v: '0x1',
  hash: h('99'),
  blockHash: h('11'),
  blockNumber: '0x10',
  transactionIndex: '0x2',
  from: FROM,
  gasPrice: '0x77359400',
};

describe('mapTransaction', () => {
  it('normalises an EIP-1559 transaction', () => {
    const tx = mapTransaction(eip1559);
    expect(tx).toEqual({
      hash: h('99'),
      blockHash: h('11'),
      blockNumber: 16,
      transactionIndex: 2,
      from: FROM,
      to: TO,
      value: '100000000000000000000',
      gas: 21_000,
      gasPrice: '2000000000',
      maxFeePerGas: '2000000000',
      maxPriorityFeePerGas: '1000000000',
      nonce: 5,
      input: '0x',
      type: 2,
      chainId: 31337,
      v: '0x1',
      r: '0x7ca0',
      s: '0x53a1',
      yParity: 1,
      accessList: [{ address: TO, storageKeys: [h('01')] }],
      nonceRaw: '0x5',
      blockNumberRaw: '0x10',
      transactionIndexRaw: '0x2',
      valueRaw: '0x56bc75e2d63100000',
      gasPriceRaw: '0x77359400',
      gasRaw: '0x5208',
      maxFeePerGasRaw: '0x77359400',
      maxPriorityFeePerGasRaw: '0x3b9aca00',
      chainIdRaw: '0x7a69',
      typeRaw: '0x2',
      yParityRaw: '0x1',
    });
    expect(transactionRecordSchema.safeParse(tx).success).toBe(true);
  });

  it('normalises a legacy contract creation that is still pending', () => {
    const tx = mapTransaction({
      type: '0x0',
      nonce: '0x2',
      gasPrice: '0x77359400',
      gas: '0x5208',
      to: null,
      value: '0x0',
      input: '0x6080',
      r: '0xcf2e',
      s: '0x72d2',
      v: '0x1b',
      hash: h('98'),
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      from: FROM,
    });
    expect(tx).toMatchObject({
      to: null,
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      chainId: null,
      yParity: null,
      accessList: null,
      type: 0,
      v: '0x1b',
    });
    expect(transactionRecordSchema.safeParse(tx).success).toBe(true);
  });

  it('keeps wei amounts beyond 2^53 exact', () => {
    const tx = mapTransaction({ ...eip1559, value: '0xffffffffffffffffffffffff' });
    expect(tx.value).toBe(BigInt('0xffffffffffffffffffffffff').toString());
  });

  it.each([
    ['from', null],
    ['hash', '0x12'],
    ['value', 10],
    ['yParity', '0x2'],
    ['accessList', 'none'],
  ])('refuses a transaction whose %s is %j', (field, value) => {
    expect(() => mapTransaction({ ...eip1559, [field]: value })).toThrow(NodeAnswerError);
  });
});
