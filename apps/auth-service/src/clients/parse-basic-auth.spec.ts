import { describe, expect, it } from '@jest/globals';
import { parseBasicAuth } from './parse-basic-auth.js';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('parseBasicAuth', () => {
  it('reads id and secret; the secret may hold colons', () => {
    expect(parseBasicAuth(basic('demo-site:demo-site-secret'))).toEqual({
      id: 'demo-site',
      secret: 'demo-site-secret',
    });
    expect(parseBasicAuth(basic('a:b:c'))).toEqual({ id: 'a', secret: 'b:c' });
    expect(parseBasicAuth(`basic ${Buffer.from('a:b').toString('base64')}`)).toEqual({
      id: 'a',
      secret: 'b',
    });
  });

  it('refuses everything else', () => {
    expect(parseBasicAuth(undefined)).toBeUndefined();
    expect(parseBasicAuth('Bearer abc')).toBeUndefined();
    expect(parseBasicAuth('Basic')).toBeUndefined();
    expect(parseBasicAuth('Basic !!!')).toBeUndefined();
    expect(parseBasicAuth(basic('no-colon'))).toBeUndefined();
    expect(parseBasicAuth(basic(':secret'))).toBeUndefined();
    expect(parseBasicAuth(basic('id:'))).toBeUndefined();
  });
});
