import { describe, expect, it } from '@jest/globals';
import { transactionReceiptSchema } from '@itp/schemas';
import { NodeAnswerError } from '../errors.js';
import { mapReceipt } from './map-receipt.js';

const h = (byte: string) => `0x${byte.repeat(32)}`;
const BLOOM = `0x${'00'.repeat(256)}`;
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const CONTRACT = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';

/** A contract creation receipt as anvil 1.7 sends it. */
const creation = {
  type: '0x2',
  status: '0x1',
  cumulativeGasUsed: '0xd822',
  logs: [
    {
      address: CONTRACT,
      topics: [h('aa'), h('bb')],
      data: '0x0001',
      blockHash: h('11'),
      blockNumber: '0x69',
      blockTimestamp: '0x6b025387',
      transactionHash: h('99'),
      transactionIndex: '0x0',
      logIndex: '0x3',
      removed: false,
    },
  ],
  logsBloom: BLOOM,
  transactionHash: h('99'),
  transactionIndex: '0x0',
  blockHash: h('11'),
  blockNumber: '0x69',
  gasUsed: '0xd822',
  effectiveGasPrice: '0x3b9acda6',
  blobGasPrice: '0x1',
  from: FROM,
  to: null,
  contractAddress: CONTRACT,
  blockTimestamp: 1795314567,
};

describe('mapReceipt', () => {
  it('normalises a receipt with logs', () => {
    const receipt = mapReceipt(creation);
    expect(receipt).toEqual({
      transactionHash: h('99'),
      transactionIndex: 0,
      blockHash: h('11'),
      blockNumber: 105,
      from: FROM,
      to: null,
      contractAddress: CONTRACT,
      status: 'success',
      gasUsed: 55_330,
      cumulativeGasUsed: 55_330,
      effectiveGasPrice: '1000000934',
      type: 2,
      logsBloom: BLOOM,
      transactionIndexRaw: '0x0',
      blockNumberRaw: '0x69',
      cumulativeGasUsedRaw: '0xd822',
      gasUsedRaw: '0xd822',
      effectiveGasPriceRaw: '0x3b9acda6',
      statusRaw: '0x1',
      typeRaw: '0x2',
      // One rule for every numeric field: value + …Raw (a number from the node gets its hex).
      blobGasPrice: '1',
      blobGasPriceRaw: '0x1',
      blockTimestamp: 1795314567,
      blockTimestampRaw: '0x6b025387',
      logs: [
        {
          address: CONTRACT,
          topics: [h('aa'), h('bb')],
          data: '0x0001',
          logIndex: 3,
          transactionIndex: 0,
          transactionHash: h('99'),
          blockHash: h('11'),
          blockNumber: 105,
          removed: false,
          logIndexRaw: '0x3',
          transactionIndexRaw: '0x0',
          blockNumberRaw: '0x69',
          blockTimestamp: 1795314567,
          blockTimestampRaw: '0x6b025387',
        },
      ],
    });
    expect(transactionReceiptSchema.safeParse(receipt).success).toBe(true);
  });

  it('says "reverted" for status 0 and null for a pre-Byzantium receipt', () => {
    expect(mapReceipt({ ...creation, status: '0x0' }).status).toBe('reverted');
    const { status: _status, ...withRoot } = creation;
    expect(mapReceipt({ ...withRoot, root: h('12') }).status).toBeNull();
  });

  it.each([
    ['status', '0x2'],
    ['logs', null],
    ['gasUsed', undefined],
    ['blockHash', null],
  ])('refuses a receipt whose %s is %j', (field, value) => {
    expect(() => mapReceipt({ ...creation, [field]: value })).toThrow(NodeAnswerError);
  });
});
