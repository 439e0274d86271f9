import { describe, expect, it } from '@jest/globals';
import { checkRequest } from './check-request.js';

describe('checkRequest', () => {
  it('accepts a call, keeping whether an id was sent (null is an id)', () => {
    expect(checkRequest({ jsonrpc: '2.0', method: 'm', params: [1], id: 7 })).toEqual({
      ok: true,
      request: { method: 'm', params: [1], hasId: true, id: 7 },
    });
    expect(checkRequest({ jsonrpc: '2.0', method: 'm', id: null })).toEqual({
      ok: true,
      request: { method: 'm', params: undefined, hasId: true, id: null },
    });
    expect(checkRequest({ jsonrpc: '2.0', method: 'm' })).toEqual({
      ok: true,
      request: { method: 'm', params: undefined, hasId: false, id: null },
    });
  });

  it('ignores members JSON-RPC does not define', () => {
    const checked = checkRequest({ jsonrpc: '2.0', method: 'm', id: 'a', extra: { x: 1 } });
    expect(checked.ok).toBe(true);
  });

  it.each([
    ['a number', 1, null],
    ['an array', [], null],
    ['null', null, null],
    ['jsonrpc 1.0', { jsonrpc: '1.0', method: 'm', id: 3 }, 3],
    ['no jsonrpc', { method: 'm', id: 'x' }, 'x'],
    ['a numeric method', { jsonrpc: '2.0', method: 1, id: 4 }, 4],
    ['string params', { jsonrpc: '2.0', method: 'm', params: 'p', id: 5 }, 5],
    ['null params', { jsonrpc: '2.0', method: 'm', params: null, id: 6 }, 6],
    ['an object id', { jsonrpc: '2.0', method: 'm', id: { a: 1 } }, null],
    ['a boolean id', { jsonrpc: '2.0', method: 'm', id: true }, null],
    ['a fractional id', { jsonrpc: '2.0', method: 'm', id: 1.5 }, null],
  ])('refuses %s (answer id %p)', (_name, item, id) => {
    const checked = checkRequest(item);
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.id).toEqual(id);
      expect(checked.reason.length).toBeGreaterThan(0);
    }
  });
});
