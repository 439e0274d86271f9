import { describe, expect, it } from '@jest/globals';
import { describeSelector, toBlockSelector } from './block-selector.js';

const HASH = `0x${'Ab'.repeat(32)}`;

describe('toBlockSelector', () => {
  it.each([
    [undefined, { kind: 'tag', tag: 'latest' }],
    [0, { kind: 'number', number: 0 }],
    [42, { kind: 'number', number: 42 }],
    ['earliest', { kind: 'number', number: 0 }],
    ['latest', { kind: 'tag', tag: 'latest' }],
    ['pending', { kind: 'tag', tag: 'pending' }],
    ['safe', { kind: 'tag', tag: 'safe' }],
    ['finalized', { kind: 'tag', tag: 'finalized' }],
    ['0x1b4', { kind: 'number', number: 436 }],
    ['0x0', { kind: 'number', number: 0 }],
    ['0x001', { kind: 'number', number: 1 }],
    [HASH, { kind: 'hash', hash: HASH.toLowerCase() }],
  ] as const)('%j → %j', (param, selector) => {
    expect(toBlockSelector(param)).toEqual(selector);
  });
});

describe('describeSelector', () => {
  it('names the block asked for', () => {
    expect(describeSelector({ kind: 'number', number: 9 })).toBe('Block 9');
    expect(describeSelector({ kind: 'tag', tag: 'pending' })).toBe('Block "pending"');
    expect(describeSelector({ kind: 'hash', hash: '0xabc' })).toBe('Block 0xabc');
  });
});
