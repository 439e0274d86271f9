import { describe, expect, it } from '@jest/globals';
import { calculateJwkThumbprint } from 'jose';
import { SigningKeysError, generateSigningJwk, parseSigningKeys } from './signing-keys.js';

describe('parseSigningKeys', () => {
  it('reads an array of private JWKs, first = current, publishing public parts only', async () => {
    const a = await generateSigningJwk();
    const b = await generateSigningJwk();
    const keys = await parseSigningKeys(JSON.stringify([a, b]));
    expect(keys.map((k) => k.kid)).toEqual([a.kid, b.kid]);
    expect(keys[0]!.publicJwk).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: a.x,
      y: a.y,
      kid: a.kid,
      alg: 'ES256',
      use: 'sig',
    });
    expect(JSON.stringify(keys.map((k) => k.publicJwk))).not.toContain(a.d!);
  });

  it('accepts { keys: [...] } and derives a missing kid from the RFC 7638 thumbprint', async () => {
    const { kid: _kid, ...jwk } = await generateSigningJwk();
    const [key] = await parseSigningKeys(JSON.stringify({ keys: [jwk] }));
    expect(key!.kid).toBe(
      await calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! }),
    );
  });

  it('refuses bad input without echoing key material', async () => {
    const good = await generateSigningJwk();
    const { d: _d, ...publicOnly } = good;
    const bad: Array<[string, RegExp]> = [
      ['not json', /not valid JSON/],
      ['[]', /non-empty/],
      ['{}', /non-empty/],
      [JSON.stringify([publicOnly]), /key #0 is not a private EC P-256 JWK/],
      [JSON.stringify([{ ...good, crv: 'P-384' }]), /key #0/],
      [JSON.stringify([{ ...good, alg: 'HS256' }]), /key #0/],
      [JSON.stringify([good, good]), /duplicate kid/],
      [JSON.stringify([{ ...good, d: 'AAAA' }]), /could not be imported/],
    ];
    for (const [input, message] of bad) {
      const err = await parseSigningKeys(input).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SigningKeysError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toContain(good.d!);
    }
  });
});
