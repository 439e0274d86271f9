import { describe, expect, it } from '@jest/globals';
import type { BlockSelector } from '../blocks/block-selector.js';
import { cachedGetBlockAnswer } from './cached-get-block.js';

const HASH = `0x${'ab'.repeat(32)}`;
const TEXT = '{"number":1,"hash":"0xab"}';

/** A stand-in for BlockService.memoryText: holds block 1 (by number and hash), records the asks. */
function memory() {
  const asked: Array<[BlockSelector, boolean]> = [];
  return {
    asked,
    memoryText: async (selector: BlockSelector, full: boolean) => {
      asked.push([selector, full]);
      const held =
        (selector.kind === 'number' && selector.number === 1) ||
        (selector.kind === 'hash' && selector.hash === HASH);
      return held ? `${TEXT.slice(0, -1)},"full":${full}}` : undefined;
    },
  };
}

const body = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const call = (params: unknown, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'getBlock',
  params,
});

describe('cachedGetBlockAnswer', () => {
  it('answers one getBlock call held in memory with the whole envelope, id as sent', async () => {
    const blocks = memory();
    expect(await cachedGetBlockAnswer(blocks, body(call([1])), 'application/json')).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"resultCode":"200","resultMessage":"Success",' +
        '"resultData":{"number":1,"hash":"0xab","full":false}}}',
    );
    expect(await cachedGetBlockAnswer(blocks, body(call(['0x1', true], 'a"b')), undefined)).toBe(
      '{"jsonrpc":"2.0","id":"a\\"b","result":{"resultCode":"200","resultMessage":"Success",' +
        '"resultData":{"number":1,"hash":"0xab","full":true}}}',
    );
    expect(
      await cachedGetBlockAnswer(
        blocks,
        body(call([HASH.toUpperCase().replace('0X', '0x')], null)),
        'text/plain; charset=utf-8',
      ),
    ).toMatch(/^\{"jsonrpc":"2.0","id":null,"result":/);
    // A leading byte-order mark is dropped, as the JSON-RPC server drops it.
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body(call([1], 2))]);
    expect(await cachedGetBlockAnswer(blocks, withBom, undefined)).toMatch(
      /^\{"jsonrpc":"2.0","id":2,/,
    );
    expect(blocks.asked).toEqual([
      [{ kind: 'number', number: 1 }, false],
      [{ kind: 'number', number: 1 }, true],
      [{ kind: 'hash', hash: HASH }, false],
      [{ kind: 'number', number: 1 }, false],
    ]);
  });

  it.each<[string, Buffer, string | undefined]>([
    ['a block not in memory', body(call([2])), undefined],
    ['a notification', body({ jsonrpc: '2.0', method: 'getBlock', params: [1] }), undefined],
    ['another method', body({ ...call([1]), method: 'getBlockNumber' }), undefined],
    ['a batch', body([call([1])]), undefined],
    ['params omitted', body({ jsonrpc: '2.0', id: 1, method: 'getBlock' }), undefined],
    ['params as an object', body(call({ block: 1 })), undefined],
    ['params the schema refuses', body(call([1, 'true'])), undefined],
    ['an invalid id', body(call([1], 1.5)), undefined],
    ['jsonrpc 1.0', body({ ...call([1]), jsonrpc: '1.0' }), undefined],
    ['malformed JSON', body('{"jsonrpc":"2.0",'), undefined],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), undefined],
    ['a latin-1 charset', body(call([1])), 'application/json; charset=ISO-8859-1'],
  ])('leaves %s to the JSON-RPC server', async (_name, raw, contentType) => {
    expect(await cachedGetBlockAnswer(memory(), raw, contentType)).toBeUndefined();
  });
});
