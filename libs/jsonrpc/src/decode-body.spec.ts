import { describe, expect, it } from '@jest/globals';
import { charsetOf, decodeBody } from './decode-body.js';

describe('charsetOf', () => {
  it('reads the charset parameter of a Content-Type, lower-cased', () => {
    expect(charsetOf('application/json')).toBeUndefined();
    expect(charsetOf(undefined)).toBeUndefined();
    expect(charsetOf('application/json; charset=UTF-8')).toBe('utf-8');
    expect(charsetOf('application/json;charset="ISO-8859-1"')).toBe('iso-8859-1');
    expect(charsetOf('text/plain; format=flowed; charset=utf-16le')).toBe('utf-16le');
  });
});

describe('decodeBody', () => {
  it('decodes UTF-8 bytes, dropping a leading BOM', () => {
    expect(decodeBody(Buffer.from('{"a":"é"}'))).toEqual({ ok: true, text: '{"a":"é"}' });
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[]')]);
    expect(decodeBody(withBom)).toEqual({ ok: true, text: '[]' });
    expect(decodeBody('\ufeff{}')).toEqual({ ok: true, text: '{}' });
  });

  it('accepts utf-8 and utf8 as declared charsets, anything else is -32701', () => {
    expect(decodeBody('{}', 'utf-8').ok).toBe(true);
    expect(decodeBody('{}', 'utf8').ok).toBe(true);
    expect(decodeBody('{}', 'iso-8859-1')).toEqual({ ok: false, code: -32701 });
  });

  it('is -32701 for UTF-16 and UTF-32 bodies, with or without BOM', () => {
    expect(decodeBody(Buffer.from('{"a":1}', 'utf16le'))).toEqual({ ok: false, code: -32701 });
    const bom16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{}', 'utf16le')]);
    expect(decodeBody(bom16le)).toEqual({ ok: false, code: -32701 });
    expect(decodeBody(Buffer.from([0xfe, 0xff, 0x00, 0x7b]))).toEqual({ ok: false, code: -32701 });
    expect(decodeBody(Buffer.from([0, 0, 0, 0x7b]))).toEqual({ ok: false, code: -32701 });
  });

  it('is -32702 for bytes that are not valid UTF-8', () => {
    expect(decodeBody(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]))).toEqual({
      ok: false,
      code: -32702,
    });
    expect(decodeBody(Buffer.from([0x5b, 0xff, 0x5d]))).toEqual({ ok: false, code: -32702 });
  });
});
