import { describe, expect, it } from '@jest/globals';
import { cellText, keyValues, table } from './table.js';

describe('table', () => {
  it('aligns columns to the widest cell, header first, without trailing spaces', () => {
    const text = table(
      [
        { alias: 'issuer', did: 'did:ethr:0xabc' },
        { alias: 'a-much-longer-alias', did: 'did:ethr:0x1' },
      ],
      ['alias', 'did'],
    );
    expect(text).toBe(
      'alias                did\n' +
        'issuer               did:ethr:0xabc\n' +
        'a-much-longer-alias  did:ethr:0x1\n',
    );
  });

  it('uses a header other than the key, and - for missing, null and empty cells', () => {
    const text = table([{ a: null, b: '' }, { a: 1 }], [{ key: 'a', header: 'A' }, 'b']);
    expect(text.split('\n')).toEqual(['A  b', '-  -', '1  -', '']);
  });

  it('prints only the header for no rows', () => {
    expect(table([], ['id', 'name'])).toBe('id  name\n');
  });
});

describe('cellText', () => {
  it('renders objects as compact JSON (bigints as digits) and keeps a cell on one line', () => {
    expect(cellText({ n: 10n, list: [1, 2] })).toBe('{"n":"10","list":[1,2]}');
    expect(cellText('two\nlines')).toBe('two lines');
    expect(cellText(false)).toBe('false');
    expect(cellText(0)).toBe('0');
  });
});

describe('keyValues', () => {
  it('aligns the values of one record, in the given order', () => {
    expect(keyValues({ address: '0xabc', balance: '10', extra: 'x' }, ['balance', 'address'])).toBe(
      'balance  10\naddress  0xabc\n',
    );
  });

  it('lists every field in the record order by default', () => {
    expect(keyValues({ b: 1, a: null })).toBe('b  1\na  -\n');
  });
});
