import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { blockRecordSchema } from './block-record.js';
import { getBlockParamsSchema } from './get-block.js';

const HASH = `0x${'ab'.repeat(32)}`;

describe('getBlockParamsSchema', () => {
  it.each([
    [[]],
    [[0]],
    [[123]],
    [[Number.MAX_SAFE_INTEGER]],
    [['latest']],
    [['earliest']],
    [['pending']],
    [['safe']],
    [['finalized']],
    [[HASH]],
    [[HASH.toUpperCase().replace('0X', '0x')]],
    [['0x0']],
    [['0x1b4']],
    [['0x1FFFFFFFFFFFFF']],
    [['0x00000001']],
    [['latest', true]],
    [[7, false]],
    [[7, false, {}]],
    [[7, true, { format: 'node' }]],
    [['latest', false, { format: 'record' }]],
  ])('accepts %j', (params) => {
    expect(getBlockParamsSchema.safeParse(params).success).toBe(true);
  });

  it.each<[unknown, string]>([
    [[-1], 'negative'],
    [[1.5], 'fractional'],
    [[Number.MAX_SAFE_INTEGER + 1], 'beyond 2^53 - 1'],
    [['123'], 'decimal string'],
    [['Latest'], 'tag in another case'],
    [['newest'], 'unknown tag'],
    [['0x'], 'empty hex'],
    [['0xzz'], 'not hex'],
    [['0x20000000000000'], 'hex beyond 2^53 - 1'],
    [[`0x${'a'.repeat(17)}`], 'hex quantity too long'],
    [[`0x${'a'.repeat(63)}`], 'hash one digit short'],
    [[`0x${'a'.repeat(65)}`], 'hash one digit long'],
    [[null], 'null'],
    [[true], 'boolean as block'],
    [[{}], 'object as block'],
    [['latest', 'true'], 'string as the flag'],
    [['latest', 1], 'number as the flag'],
    [['latest', null], 'null as the flag'],
    [['latest', true, 3], 'a number as the third element'],
    [['latest', true, { format: 'hex' }], 'an unknown format'],
    [['latest', true, { format: 'node', x: 1 }], 'an unknown option'],
    [['latest', true, {}, 4], 'a fourth element'],
    [{ block: 'latest' }, 'an object'],
  ])('refuses %j (%s)', (params) => {
    expect(getBlockParamsSchema.safeParse(params).success).toBe(false);
  });

  it('documents the three positions by name in JSON Schema', () => {
    const json = z.toJSONSchema(getBlockParamsSchema, { io: 'input' }) as {
      prefixItems: Array<{ title?: string }>;
    };
    expect(json.prefixItems.map((item) => item.title)).toEqual([
      'block',
      'fullTransactions',
      'options',
    ]);
  });
});

describe('blockRecordSchema', () => {
  it('takes integers beyond 2^53 - 1 (rounded) but not fractions or negatives', () => {
    const shape = blockRecordSchema.shape.totalDifficulty;
    expect(shape.safeParse(5.875e22).success).toBe(true);
    expect(shape.safeParse(null).success).toBe(true);
    expect(shape.safeParse(1.5).success).toBe(false);
    expect(shape.safeParse(-1).success).toBe(false);
  });
});
